//! The command line, on top of every stage: clap types here, one module per command. No stage
//! imports it; a command calls the library, prints, and maps the result to an exit code.
//!
//! Exit codes: 0 fine, 1 problems found in the input (diagnostics, failed checks, stale
//! generated files), 2 usage or I/O errors.

mod audit;
mod conform;
mod gen;
mod import;
mod lint;
mod outcome;
mod paths;
mod show;
mod sim;
mod validate;

pub use outcome::{Failure, Outcome};

use clap::{Parser, Subcommand, ValueEnum};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser, Debug)]
#[command(
    name = "aclgen",
    version,
    about = "CANN aclnn operator docs → validators, C headers, Ascend C projects and tests"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Print the IR of each doc or spec.
    Show {
        /// Docs (.md, .txt, .html: dispatch is on content) or YAML specs; a folder means every file below it.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// How the IR is printed on stdout (diagnostics go to stderr) [default: json].
        #[arg(long, value_enum)]
        format: Option<DataFormat>,
        /// Instead of the IR: the documented conditions no rule checks, grouped by the kind of
        /// reason (conditional, vocabulary, unstated, ...) with whose gap each is, as text; with
        /// `--format json` or `yaml`, the same as data (`by_kind.<kind>.count`, `.rows`).
        #[arg(long)]
        manual: bool,
    },
    /// Write normalized YAML specs (<OUT>/<Op>.yaml) from docs.
    ///
    /// A spec that is already there is replaced only when import wrote it and nobody edited it
    /// since; otherwise import writes nothing and exits 1 naming it.
    Import {
        /// Docs to import (.md, .txt, .html: the format is read from the content).
        #[arg(required = true)]
        docs: Vec<PathBuf>,
        /// Folder the specs are written to.
        #[arg(long, default_value = "specs/ops")]
        out: PathBuf,
        /// Replace existing specs even when import did not write them or they were edited.
        #[arg(long)]
        force: bool,
    },
    /// Report every problem in docs and specs, with file:line and the source line.
    ///
    /// Errors are what `gen` refuses (exit 1); warnings are worth a look (exit 0).
    Lint {
        /// Docs or YAML specs; a folder means every doc and spec below it.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// `text`: rustc-style with the source line; `json`: an array of diagnostics.
        #[arg(long, value_enum, default_value_t = ReportFormat::Text)]
        format: ReportFormat,
        /// Show errors only (the exit code is the same).
        #[arg(long)]
        errors_only: bool,
        /// CANN's headers (`*.h`): also warn (`header-drift`) where a doc's prototype differs.
        #[arg(long)]
        headers: Option<PathBuf>,
    },
    /// Regenerate every artifact from the specs (the main job; CI runs it with --check).
    Gen(GenArgs),
    /// Check one first-phase call against an op's documented rules.
    Validate {
        /// Op name (without the aclnn prefix) from the project's specs.
        #[arg(long)]
        op: String,
        /// The call: {"product": ..., "args": {...}}, or a generated `tests/cases.json` with --case.
        #[arg(long)]
        call: PathBuf,
        /// The case to check when --call is a case file (`ops/<op>/tests/cases.json`).
        #[arg(long)]
        case: Option<String>,
        /// Read the op from this doc or YAML spec instead of the project's specs.
        #[arg(long)]
        spec: Option<PathBuf>,
        /// The project's specs folder (docs/ and ops/), read when --spec is not given.
        #[arg(long, default_value = "specs")]
        specs: PathBuf,
    },
    /// Show which documented error conditions are checked and tested.
    ///
    /// An audit with no documented condition at all (an empty folder, no error rows) exits 1.
    Audit {
        /// The specs folder (docs/ and ops/), or a bare folder of docs.
        #[arg(long, default_value = "specs")]
        specs: PathBuf,
        /// `table` for people, `json` for machines, `markdown` for a CI summary.
        #[arg(long, value_enum, default_value_t = AuditFormat::Table)]
        format: AuditFormat,
        /// Exit 1 when the share of conditions mapped, tested and passing is below this percentage.
        #[arg(long)]
        min_coverage: Option<f64>,
        /// CANN op_api gtests: show per condition whether CANN's own tests agree with its rule.
        #[arg(long, conflicts_with = "calls")]
        tests: Option<PathBuf>,
        /// CANN's unit-test calls as data (`ut-calls.jsonl`, see `conform --calls`) as the oracle
        /// of each condition instead of gtest sources.
        #[arg(long)]
        calls: Option<PathBuf>,
    },
    /// Check the validators against CANN's op_api unit tests (gtests), or the docs' own example
    /// programs, and report agreement.
    #[command(group(clap::ArgGroup::new("oracle").required(true).args(["tests", "calls", "examples"])))]
    Conform {
        /// Folder (or file) of CANN op_api gtests (`*.cpp`).
        #[arg(long)]
        tests: Option<PathBuf>,
        /// CANN's unit-test calls as data: one JSON object a line with `file`, `test`, `api`,
        /// `product`, `args` and the `expect`ed status (`ut-calls.jsonl`); a call is named by its
        /// file and test.
        #[arg(long)]
        calls: Option<PathBuf>,
        /// Check each doc's own example program (调用示例) instead: CANN documents it as a valid
        /// call, so every example call is expected to succeed.
        #[arg(long)]
        examples: bool,
        /// Specs folder, or a bare folder of docs, whose ops the tests call.
        #[arg(long, default_value = "specs")]
        docs: PathBuf,
        /// The project's overlays (`specs/ops`) to apply to the docs' ops of the same name.
        #[arg(long)]
        overlays: Option<PathBuf>,
        /// CANN's headers (a folder of `*.h`, or their prototypes as data: `prototypes.jsonl`):
        /// also report docs whose prototype differs from the header.
        #[arg(long)]
        headers: Option<PathBuf>,
        /// A reviewed list of false rejections that are doc contradictions (YAML entries with
        /// `test`, `product`, `doc` and `note`): each is marked in the report, and a false
        /// rejection the list does not name, or an entry no false rejection matches any more,
        /// makes conform exit 1.
        #[arg(long)]
        contradictions: Option<PathBuf>,
        /// With --contradictions: write into DIR, one `<Op>.yaml` per op, the overlay that settles
        /// each reviewed contradiction (the call's dtype joins the doc's column, or the row that
        /// rejects it goes), with the evidence as its reason. A file there it did not write is
        /// left alone: nothing is written (exit 1).
        #[arg(long, value_name = "DIR", requires = "contradictions")]
        suggest_overlays: Option<PathBuf>,
        /// `table` for people, `json` for machines, `markdown` for a CI summary.
        #[arg(long, value_enum, default_value_t = AuditFormat::Table)]
        format: AuditFormat,
    },
    /// Run an op's generated tiling and kernel on the CPU: aclgen's own Ascend C runtime and AI
    /// Core model, with a pipe checker; no CANN needed.
    Sim {
        /// Op name (without the aclnn prefix), e.g. AvgPool2dBackward.
        #[arg(long)]
        op: String,
        /// The validate call format; each tensor also has "data": a raw little-endian file.
        #[arg(long)]
        call: PathBuf,
        /// The specs folder the call is validated against.
        #[arg(long, default_value = "specs")]
        specs: PathBuf,
        /// The generated tree holding the op's tiling and kernel (run `gen` first).
        #[arg(long, default_value = "generated")]
        generated: PathBuf,
        /// A CANN toolkit (default `$ASCEND_HOME_PATH`): the kernel is also compiled against its
        /// `kernel_operator.h`. Without one, aclgen's own runtime only.
        #[arg(long)]
        cann: Option<PathBuf>,
        /// Vector cores the tiling may use (default: the SoC's, 48 on Ascend910B2).
        #[arg(long)]
        cores: Option<u32>,
        /// Run the cycle model: modeled cycles, microseconds at the SoC clock, each pipe's busy
        /// share and the roofline.
        #[arg(long)]
        profile: bool,
        /// Write the cycle model's timelines as a Chrome trace (one row per pipe); implies --profile.
        #[arg(long)]
        trace: Option<PathBuf>,
        /// With --profile: `text` prints the profile after the summary, `json` only the summary
        /// with its `profile` (modeled_cycles, roofline_cycles, us, pipes).
        #[arg(long, value_enum, default_value_t = ReportFormat::Text)]
        format: ReportFormat,
    },
}

#[derive(clap::Args, Debug, Clone)]
pub struct GenArgs {
    /// The specs folder: docs/ (operator docs) and ops/ (YAML specs and overlays).
    #[arg(long, default_value = "specs")]
    pub specs: PathBuf,
    /// Where the generated tree goes (only files gen wrote are ever replaced or removed).
    #[arg(long, default_value = "generated")]
    pub out: PathBuf,
    /// Hand-written kernel bodies and tiling choices, filled into the op projects (never written).
    #[arg(long, default_value = "kernels")]
    pub kernels: PathBuf,
    /// Tera templates of the C and Ascend C outputs (use your own copy to change them).
    #[arg(long, default_value = "templates")]
    pub templates: PathBuf,
    /// Write nothing; exit 1 listing each file that would change, with a short diff.
    #[arg(long)]
    pub check: bool,
    /// `text`: diagnostics on stderr, a summary line on stdout; `json`: one JSON object on
    /// stdout (counts and every diagnostic with its op, code, severity, file and line).
    #[arg(long, value_enum, default_value_t = ReportFormat::Text)]
    pub format: ReportFormat,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum DataFormat {
    Json,
    Yaml,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReportFormat {
    Text,
    Json,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum AuditFormat {
    Table,
    Json,
    Markdown,
}

pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            // clap exits 2 on usage errors and 0 on --help/--version, as we want.
            e.exit();
        }
    };
    match run(cli.command) {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Input) => ExitCode::from(1),
        Err(Failure::Usage(msg)) => {
            eprintln!("error: {msg}");
            ExitCode::from(2)
        }
    }
}

pub fn run(command: Command) -> Outcome {
    match command {
        Command::Show {
            paths,
            format,
            manual,
        } => show::run(&paths, format, manual),
        Command::Import { docs, out, force } => import::run(&docs, &out, force),
        Command::Lint {
            paths,
            format,
            errors_only,
            headers,
        } => lint::run(&paths, format, errors_only, headers.as_deref()),
        Command::Gen(args) => gen::run(&args),
        Command::Validate {
            op,
            call,
            case,
            spec,
            specs,
        } => validate::run(&op, &call, case.as_deref(), spec.as_deref(), &specs),
        Command::Audit {
            specs,
            format,
            min_coverage,
            tests,
            calls,
        } => audit::run(
            &specs,
            format,
            min_coverage,
            audit::Oracle::of(tests.as_deref(), calls.as_deref()),
        ),
        Command::Conform {
            tests,
            calls,
            examples: _,
            docs,
            overlays,
            headers,
            contradictions,
            suggest_overlays,
            format,
        } => conform::run(
            conform::Oracle::of(tests.as_deref(), calls.as_deref()),
            &docs,
            conform::Inputs {
                overlays: overlays.as_deref(),
                headers: headers.as_deref(),
                contradictions: contradictions.as_deref(),
                suggest_overlays: suggest_overlays.as_deref(),
            },
            format,
        ),
        Command::Sim {
            op,
            call,
            specs,
            generated,
            cann,
            cores,
            profile,
            trace,
            format,
        } => sim::run(&sim::SimArgs {
            op: &op,
            call: &call,
            specs: &specs,
            generated: &generated,
            cann: cann.as_deref(),
            cores,
            trace: trace.as_deref(),
            profile: profile || trace.is_some(),
            json: format == ReportFormat::Json,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    /// `aclgen help <command>` explains every option and path a user can pass.
    #[test]
    fn every_option_and_argument_has_help_text() {
        let cli = Cli::command();
        let mut missing = Vec::new();
        for sub in cli.get_subcommands() {
            assert!(sub.get_about().is_some(), "{} has no about", sub.get_name());
            for arg in sub.get_arguments() {
                let id = arg.get_id().as_str();
                if id != "help" && id != "version" && arg.get_help().is_none() {
                    missing.push(format!("{} {id}", sub.get_name()));
                }
            }
        }
        assert!(missing.is_empty(), "no help text: {missing:?}");
    }
}
