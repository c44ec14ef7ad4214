#![no_main]
//! Any bytes as a doc: the reader must end in IR or diagnostics, never a panic or a hang.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = aclgen::read::read_doc("fuzz.md", data);
});
