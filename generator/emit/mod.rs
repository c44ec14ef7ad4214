//! Stage 3: the IR becomes files under `generated/`.
//!
//! Each emitter is a pure function from IR to `OutFile`s; only `cmd_gen` touches the disk.

pub mod kernel;
pub mod rust;

use crate::cli::{GenArgs, Outcome};
use std::path::PathBuf;

/// One generated file, its path relative to the output folder (`generated/`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutFile {
    pub path: PathBuf,
    pub contents: String,
}

pub fn cmd_gen(args: &GenArgs) -> Outcome {
    let _ = args;
    Err(crate::cli::Failure::usage(
        "`gen` is not implemented yet (emitters issue)",
    ))
}
