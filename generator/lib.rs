//! aclgen: CANN aclnn operator docs in, validators, C headers, Ascend C projects and tests out.
//!
//! Data flows one way; each module below uses only the ones listed before it, and the IR is
//! what stages hand on:
//!
//! ```text
//! specs/docs/*  ─ read ─┐
//!                       ├─ specs ─► ir::OpIr ─► rules ─► cases ─► emit ─► write ─► generated/
//! specs/ops/*.yaml ─────┘    (pipeline::load = specs + rules)        └─► audit, conform, sim
//! ```
//!
//! `cli` sits on top: clap types and one module per command; no stage imports it.
//! `tests/architecture.rs` checks the order.

// The foundation every stage shares.
pub mod diag;
pub mod ir;
pub mod products;

// The stages, in pipeline order.
pub mod cases;
pub mod emit;
pub mod generate;
pub mod pipeline;
pub mod read;
pub mod rules;
pub mod specs;
pub mod write;

// Reports built on the pipeline.
pub mod audit;
pub mod conform;
pub mod sim;

pub mod cli;

pub use generate::{generate, GenError, GenOptions, GenReport};
pub use ir::OpIr;
pub use pipeline::load;
