//! The integration tests, one binary: `cargo test --test it` runs them all, `cargo test --test it
//! gen_cli::` one module. Each module was a test binary of its own; cargo links every test binary
//! on its own, so one binary is one link after a change to the library instead of 27.

mod common;

mod architecture;
mod audit;
mod bad_input;

mod cli_read;
mod conform_cli;
mod corpus;
mod corpus_casts;
mod corpus_conform;
mod corpus_emit;
mod corpus_infershape;
mod corpus_inplace;
mod corpus_layouts;
mod corpus_rules;
mod corpus_selftest;
mod cpp_layer;
mod cpp_pred;
mod cpp_typecheck;
mod fuzz_regressions;
mod gen;
mod gen_cli;
mod headers;
mod headings_oracle;
mod import_cli;
mod kernel_sources;
mod msopgen;
mod mutated_validator;
mod no_cann_code;
mod proof;
mod reader_fixtures;
mod readme;
mod robust;
mod seed_rules;
mod seeds;
mod sim_cli;
mod sim_golden;
mod sim_model;
mod soc_table;
mod status_codes;
mod validate_cli;
mod validators_every_rule;
