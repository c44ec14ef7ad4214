#![no_main]
//! Any text as a YAML spec: a diagnostic with a location, never a panic.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let _ = aclgen::specs::read_spec_file("fuzz.yaml", &text);
});
