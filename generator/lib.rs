//! aclgen: CANN aclnn operator docs in, validators, C headers, Ascend C projects and tests out.
//!
//! Data flows one way, and the IR is the only thing stages share:
//!
//! ```text
//! specs/docs/*  ─┐
//!                ├─ read ──► ir::OpIr ──► rules ──► emit (rust, c, ascend, cases) ──► generated/
//! specs/ops/*.yaml┘                              └─► audit
//! ```

pub mod audit;
pub mod cases;
pub mod cli;
pub mod conform;
pub mod diag;
pub mod emit;
pub mod ir;
pub mod read;
pub mod rules;
pub mod sim;
