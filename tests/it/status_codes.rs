//! The status codes generated code may name are exactly the ones CANN declares: opbase's
//! `opdev/op_errno.h` (skipped with a message where `../shared/cann` is absent).

use aclnn_runtime::status;
use std::collections::BTreeMap;

fn op_errno() -> Option<String> {
    let path =
        crate::common::repo().join("../shared/cann/opbase/include/nnopbase/opdev/op_errno.h");
    std::fs::read_to_string(path).ok()
}

#[test]
fn declared_status_codes_are_canns() {
    let Some(header) = op_errno() else {
        eprintln!("../shared/cann is absent: status codes not compared with opbase's op_errno.h");
        return;
    };
    let mut canns: BTreeMap<u32, Vec<String>> = BTreeMap::new();
    for line in header.lines() {
        let mut words = line.split_whitespace();
        if let (Some("#define"), Some(name), Some(value)) =
            (words.next(), words.next(), words.next())
        {
            if let (true, Ok(code)) = (name.starts_with("ACLNN_"), value.parse::<u32>()) {
                canns.entry(code).or_default().push(name.to_string());
            }
        }
    }
    assert!(canns.len() > 20, "op_errno.h read: {canns:?}");
    for (code, name) in status::DECLARED {
        let names = canns
            .get(code)
            .unwrap_or_else(|| panic!("{code} is not in op_errno.h"));
        assert!(
            names.iter().any(|n| n == name),
            "{code}: CANN names it {names:?}, not {name}"
        );
    }
    for code in canns.keys() {
        assert!(
            status::declared(*code).is_some(),
            "op_errno.h declares {code}"
        );
    }
}

#[test]
fn the_stand_in_header_declares_what_generated_tests_name() {
    let stand_in = std::fs::read_to_string(
        crate::common::repo().join("tests/standins/include/aclnn/acl_meta.h"),
    )
    .expect("stand-in header");
    for (code, name) in status::DECLARED.iter().filter(|(c, _)| *c < 561104) {
        assert!(
            stand_in.contains(&format!("#define {name} {code}")),
            "tests/standins/include/aclnn/acl_meta.h lacks {name}"
        );
    }
}
