use std::process::ExitCode;

fn main() -> ExitCode {
    aclgen::cli::main()
}
