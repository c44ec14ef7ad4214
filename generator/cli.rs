//! The command line: a stable contract other tools and our CI build on.
//!
//! Exit codes: 0 fine, 1 problems found in the input (diagnostics, failed checks, stale
//! generated files), 2 usage or I/O errors.

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
        #[arg(long, value_enum, default_value_t = DataFormat::Json)]
        format: DataFormat,
    },
    /// Write normalized YAML specs (specs/ops/<Op>.yaml) from docs.
    Import {
        #[arg(required = true)]
        docs: Vec<PathBuf>,
        #[arg(long, default_value = "specs/ops")]
        out: PathBuf,
    },
    /// Report every problem in docs and specs, with file:line and the source line.
    Lint {
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        #[arg(long, value_enum, default_value_t = ReportFormat::Text)]
        format: ReportFormat,
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
        #[arg(long, default_value = "specs")]
        specs: PathBuf,
    },
    /// Show which documented error conditions are checked and tested.
    Audit {
        #[arg(long, default_value = "specs")]
        specs: PathBuf,
        #[arg(long, value_enum, default_value_t = AuditFormat::Table)]
        format: AuditFormat,
        /// Exit 1 when the share of conditions mapped, tested and passing is below this percentage.
        #[arg(long)]
        min_coverage: Option<f64>,
        /// CANN op_api gtests: show per condition whether CANN's own tests agree with its rule.
        #[arg(long)]
        tests: Option<PathBuf>,
    },
    /// Check the validators against CANN's op_api unit tests (gtests) and report agreement.
    Conform {
        /// Folder (or file) of CANN op_api gtests (`*.cpp`).
        #[arg(long)]
        tests: PathBuf,
        /// Specs folder, or a bare folder of docs, whose ops the tests call.
        #[arg(long, default_value = "specs")]
        docs: PathBuf,
        /// The project's overlays (`specs/ops`) to apply to the docs' ops of the same name.
        #[arg(long)]
        overlays: Option<PathBuf>,
        /// CANN's headers (`*.h`): also report docs whose prototype differs from the header.
        #[arg(long)]
        headers: Option<PathBuf>,
        #[arg(long, value_enum, default_value_t = AuditFormat::Table)]
        format: AuditFormat,
    },
    /// Run an op's generated tiling and hand-written kernel on the CPU (host emulation of Ascend C).
    Sim {
        #[arg(long)]
        op: String,
        /// The validate call format; each tensor also has "data": a raw little-endian file.
        #[arg(long)]
        call: PathBuf,
        #[arg(long, default_value = "specs")]
        specs: PathBuf,
        #[arg(long, default_value = "generated")]
        generated: PathBuf,
        #[arg(long, default_value = "kernels")]
        kernels: PathBuf,
    },
}

#[derive(clap::Args, Debug, Clone)]
pub struct GenArgs {
    #[arg(long, default_value = "specs")]
    pub specs: PathBuf,
    #[arg(long, default_value = "generated")]
    pub out: PathBuf,
    #[arg(long, default_value = "kernels")]
    pub kernels: PathBuf,
    #[arg(long, default_value = "templates")]
    pub templates: PathBuf,
    /// Write nothing; exit 1 listing each file that would change, with a short diff.
    #[arg(long)]
    pub check: bool,
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

/// Why a command failed, which decides its exit code.
#[derive(Debug)]
pub enum Failure {
    /// Problems in the input (already reported): exit 1.
    Input,
    /// Bad usage or an I/O error, with its message: exit 2.
    Usage(String),
}

impl Failure {
    pub fn usage(msg: impl Into<String>) -> Self {
        Failure::Usage(msg.into())
    }
}

pub type Outcome = Result<(), Failure>;

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
        Command::Show { paths, format } => crate::read::cmd_show(&paths, format),
        Command::Import { docs, out } => crate::read::cmd_import(&docs, &out),
        Command::Lint { paths, format } => crate::read::cmd_lint(&paths, format),
        Command::Gen(args) => crate::emit::cmd_gen(&args),
        Command::Validate {
            op,
            call,
            case,
            spec,
            specs,
        } => crate::rules::cmd_validate(&op, &call, case.as_deref(), spec.as_deref(), &specs),
        Command::Audit {
            specs,
            format,
            min_coverage,
            tests,
        } => crate::audit::cmd_audit(&specs, format, min_coverage, tests.as_deref()),
        Command::Conform {
            tests,
            docs,
            overlays,
            headers,
            format,
        } => crate::conform::cmd_conform(
            &tests,
            &docs,
            overlays.as_deref(),
            headers.as_deref(),
            format,
        ),
        Command::Sim {
            op,
            call,
            specs,
            generated,
            kernels,
        } => crate::sim::cmd_sim(&op, &call, &specs, &generated, &kernels),
    }
}
