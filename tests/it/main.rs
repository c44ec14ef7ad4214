//! The integration tests, one binary (`cargo test --test it`; `cargo test --test it gen_cli::` runs one module).
//! Each module was a test binary of its own; linked once, they build in a fraction of the time.

mod common;

mod architecture;
mod audit;
mod bad_input;
mod cann_headers;
mod cli_read;
mod conform_cli;
mod corpus;
mod corpus_conform;
mod corpus_emit;
mod corpus_rules;
mod emu_rules;
mod fuzz_regressions;
mod gen;
mod gen_cli;
mod headers;
mod headings_oracle;
mod import_cli;
mod kernel_sources;
mod mutated_validator;
mod readme;
mod robust;
mod seed_rules;
mod seeds;
mod sim_cli;
mod sim_golden;
mod validate_cli;
mod validators_every_rule;
