//! `aclgen sim`: an op's tiling and kernel run on the CPU against a validated call.

use super::{Failure, Outcome};
use crate::sim::{default_cache, parse_case, toolkit_kernel_api, SimError, SimOptions};
use std::path::Path;

/// The command line of `aclgen sim`.
pub struct SimArgs<'a> {
    pub op: &'a str,
    pub call: &'a Path,
    pub specs: &'a Path,
    pub generated: &'a Path,
    pub cann: Option<&'a Path>,
    pub cores: Option<u32>,
    pub trace: Option<&'a Path>,
    pub profile: bool,
    pub json: bool,
}

pub fn run(args: &SimArgs) -> Outcome {
    let SimArgs {
        op,
        call,
        specs,
        generated,
        cann,
        cores,
        ..
    } = *args;
    let loaded = crate::pipeline::load(specs)?;
    let wanted = op.strip_prefix("aclnn").unwrap_or(op);
    let op_ir = loaded
        .ops
        .into_iter()
        .find(|o| o.op == wanted)
        .ok_or_else(|| Failure::usage(format!("no op `{wanted}` in {}", specs.display())))?;
    let op_ir = &op_ir;
    let text = std::fs::read_to_string(call)
        .map_err(|e| Failure::usage(format!("{}: {e}", call.display())))?;
    let case_dir = call.parent().unwrap_or(Path::new("."));
    let case = parse_case(op_ir, &text, case_dir)
        .map_err(|e| Failure::usage(format!("{}: {e}", call.display())))?;
    if cores == Some(0) {
        return Err(Failure::usage("--cores must be at least 1"));
    }
    let toolkit = toolkit_kernel_api(cann).map_err(Failure::usage)?;
    let opts = SimOptions {
        generated: generated.to_path_buf(),
        toolkit,
        cache: default_cache(),
        core_num: cores,
        profile: args.profile,
        trace: args.trace.map(Path::to_path_buf),
    };
    match crate::sim::run(op_ir, &case, &opts) {
        Ok(summary) => {
            println!("{summary}");
            if args.profile && !args.json {
                print!("{}", crate::sim::profile::profile_text(&summary["profile"]));
            }
            Ok(())
        }
        Err(SimError::Rejected(e)) => {
            let status = serde_json::json!({
                "status": "rejected", "code": e.code, "name": e.name,
                "condition": e.condition, "message": e.message,
            });
            println!("{status}");
            Err(Failure::Input)
        }
        Err(SimError::Failed { summary, stderr }) => {
            println!("{summary}");
            eprint!("{stderr}");
            Err(Failure::Input)
        }
        Err(SimError::Setup(msg)) => Err(Failure::usage(msg)),
    }
}
