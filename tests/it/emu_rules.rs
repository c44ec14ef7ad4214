//! The Ascend C host emulation on its own (tests/emu/emu_selftest.cpp, compiled with g++):
//! atomic add, DataCopyPad strides, Cast rounding, and each rule violation naming its rule, core
//! and the line of the call that broke it.

use std::path::PathBuf;
use std::process::Command;
use std::sync::OnceLock;

use crate::common::repo;

/// The self-test binary, built once per test run; `None` when g++ is missing.
fn selftest() -> Option<&'static PathBuf> {
    static BIN: OnceLock<Option<PathBuf>> = OnceLock::new();
    BIN.get_or_init(|| {
        let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("emu_selftest");
        let status = Command::new("g++")
            .args(["-std=c++17", "-O1", "-Wall", "-Wextra", "-Werror", "-I"])
            .arg(repo().join("kernels/host"))
            .arg(repo().join("tests/emu/emu_selftest.cpp"))
            .arg("-o")
            .arg(&out)
            .status();
        match status {
            Ok(s) if s.success() => Some(out),
            Ok(s) => panic!("emu_selftest.cpp does not compile: {s}"),
            Err(e) => {
                println!("skipped: g++ not runnable ({e})");
                None
            }
        }
    })
    .as_ref()
}

fn run(case: &str) -> Option<(i32, String)> {
    let out = Command::new(selftest()?).arg(case).output().expect("runs");
    Some((
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    ))
}

/// The line of the first `// line of the violation` in the C++ function `function`.
fn violation_line(function: &str) -> usize {
    let text = std::fs::read_to_string(repo().join("tests/emu/emu_selftest.cpp")).expect("source");
    let lines: Vec<&str> = text.lines().collect();
    let start = lines
        .iter()
        .position(|l| l.starts_with(&format!("void {function}()")))
        .expect("function");
    start
        + lines[start..]
            .iter()
            .position(|l| l.contains("line of the violation"))
            .expect("marked line")
        + 1
}

fn assert_violation(case: &str, function: &str, rule: &str, message: &str) {
    assert_violation_on(case, function, rule, message, 0);
}

fn assert_violation_on(case: &str, function: &str, rule: &str, message: &str, core: u32) {
    let Some((code, out)) = run(case) else {
        return;
    };
    assert_eq!(code, 3, "{out}");
    let expected = format!(
        "violation {rule} core {core} line {}: ",
        violation_line(function)
    );
    assert!(out.contains(&expected), "want `{expected}` in {out}");
    assert!(out.contains(message), "want `{message}` in {out}");
}

#[test]
fn atomic_add_accumulates_across_cores() {
    if let Some((code, out)) = run("atomic_add") {
        assert_eq!((code, out.trim()), (0, "ok 4 4"));
    }
}

#[test]
fn cores_writing_one_address_without_atomic_add_race() {
    assert_violation_on(
        "racing_cores",
        "RacingCores",
        "gm-race",
        "byte 0 of global tensor 'y' was written by core 0 too",
        1,
    );
}

#[test]
fn data_copy_pad_honours_block_strides_and_padding() {
    if let Some((code, out)) = run("datacopypad_strides") {
        // UB: blocks on 32-byte boundaries, padding value 9 after the first block's 3 floats;
        // GM out: the 3 blocks packed.
        assert_eq!(
            (code, out.trim()),
            (0, "ok ub 0 2 9 5 10 | 0 1 2 5 6 7 10 11 12")
        );
    }
}

#[test]
fn casts_round_to_nearest_even() {
    if let Some((code, out)) = run("cast_rounding") {
        assert_eq!((code, out.trim()), (0, "ok 3c00 3c02 7c00 3f80"));
    }
}

#[test]
fn queue_rules() {
    assert_violation(
        "enque_beyond_depth",
        "EnQueBeyondDepth",
        "queue-ownership",
        "EnQue beyond the queue depth of 1",
    );
    assert_violation(
        "use_after_free",
        "UseAfterFree",
        "queue-ownership",
        "after its FreeTensor",
    );
    assert_violation(
        "free_enqueued",
        "FreeEnqueued",
        "queue-ownership",
        "FreeTensor of a tensor that is enqueued",
    );
    assert_violation(
        "deque_empty",
        "DeQueEmpty",
        "queue-ownership",
        "DeQue on an empty queue",
    );
    assert_violation(
        "other_queue",
        "OtherQueue",
        "queue-ownership",
        "belongs to another queue",
    );
}

#[test]
fn unified_buffer_rules() {
    assert_violation(
        "vector_past_end",
        "VectorPastEnd",
        "ub-bounds",
        "Muls reaches element 9 of a LocalTensor of 8 elements",
    );
    assert_violation(
        "misaligned_ub_address",
        "MisalignedUbAddress",
        "datacopy-alignment",
        "address at byte 12 is not 32-byte aligned",
    );
    assert_violation(
        "misaligned_vector_operand",
        "MisalignedVectorOperand",
        "vector-alignment",
        "Adds: operand at Unified Buffer byte 12 is not 32-byte aligned",
    );
    // 256 KiB (ascend910) fit exactly; one more block does not.
    assert_violation(
        "ub_capacity_on_other_product",
        "UbCapacityOnOtherProduct",
        "ub-capacity",
        "the product has 262144 bytes per core",
    );
}
