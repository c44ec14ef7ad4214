//! `aclgen sim`: an op's tiling and kernel run on the CPU against a validated call.

use super::{Failure, Outcome};
use crate::sim::{default_cache, find_cann, parse_case, SimError, SimOptions};
use std::path::Path;

pub fn run(
    op: &str,
    call: &Path,
    specs: &Path,
    generated: &Path,
    cann: Option<&Path>,
    cores: Option<u32>,
) -> Outcome {
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
    let cann = find_cann(cann).map_err(Failure::usage)?;
    let opts = SimOptions {
        generated: generated.to_path_buf(),
        cann,
        cache: default_cache(),
        core_num: cores,
    };
    match crate::sim::run(op_ir, &case, &opts) {
        Ok(summary) => {
            println!("{summary}");
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
