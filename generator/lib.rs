//! aclgen: CANN aclnn operator docs in, validators, C headers, Ascend C projects and tests out.
//!
//! Data flows one way; each module below uses only the ones listed before it, and the IR is
//! what stages hand on:
//!
//! ```text
//! specs/docs/*  ─ read ─┐
//!                       ├─ specs ─► ir::OpIr ─► rules ─► cases ─► emit ─► write ─► generated/
//! specs/ops/*.yaml ─────┘   (pipeline::load = specs + rules + cases::prove)  └─► audit, conform, sim
//! ```
//!
//! `cli` sits on top: clap types and one module per command; no stage imports it.
//! `tests/it/architecture.rs` checks the order.

// The foundation every stage shares.
pub mod ctype;
pub mod diag;
pub mod files;
pub mod ir;
pub mod products;
// An installed CANN toolkit: the one place CANN's code comes from.
pub mod toolkit;
// Hand-built IR and seed docs for tests (unit tests and `tests/it`).
#[doc(hidden)]
pub mod fixture;
// C++ programs (CANN's op_api unit tests, a doc's call example) evaluated into the calls they make.
pub mod programs;

// The stages, in pipeline order.
// 1. One doc's bytes → IR.
pub mod read;
// 2. A specs folder → one merged IR per op.
pub mod specs;
// 3. Documented error conditions → rules.
pub mod rules;
// 4. Test cases from the rules, and the proof that a valid call exists.
pub mod cases;
// 5. Specs + rules, proven: where every command starts.
pub mod pipeline;
// 6. IR → files in memory.
pub mod emit;
// 7. Files → disk.
pub mod write;
// 8. `gen`: full or incremental.
pub mod generate;

// Reports built on the pipeline.
pub mod conform;
// (audit shows CANN's unit tests per condition through conform)
pub mod audit;
pub mod sim;

pub mod cli;

pub use generate::{generate, GenError, GenOptions, GenReport};
pub use ir::OpIr;
pub use pipeline::load;
