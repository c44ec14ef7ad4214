//! The status codes generated code may name are exactly the ones CANN declares: opbase's
//! `opdev/op_errno.h`, as data (`../shared/cann-data/status-codes.json`; skipped with a message
//! where `../shared` is absent).

use aclnn_runtime::status;
use std::collections::BTreeMap;

/// Every code opbase declares, with its names (one value may have two).
fn canns() -> Option<BTreeMap<u32, Vec<String>>> {
    let path = crate::common::repo().join("../shared/cann-data/status-codes.json");
    let text = std::fs::read_to_string(path).ok()?;
    let v: serde_json::Value = serde_json::from_str(&text).expect("status-codes.json is JSON");
    let mut out: BTreeMap<u32, Vec<String>> = BTreeMap::new();
    for c in v["codes"].as_array().expect("codes") {
        let value = c["value"].as_u64().expect("value") as u32;
        let name = c["name"].as_str().expect("name").to_string();
        out.entry(value).or_default().push(name);
    }
    Some(out)
}

#[test]
fn declared_status_codes_are_canns() {
    let Some(canns) = canns() else {
        println!("skipped: ../shared/cann-data/status-codes.json is absent");
        return;
    };
    assert!(canns.len() > 20, "status-codes.json read: {canns:?}");
    for (code, name) in status::DECLARED {
        let names = canns
            .get(code)
            .unwrap_or_else(|| panic!("{code} is not declared by opbase"));
        assert!(
            names.iter().any(|n| n == name),
            "{code}: CANN names it {names:?}, not {name}"
        );
    }
    for code in canns.keys() {
        assert!(status::declared(*code).is_some(), "opbase declares {code}");
    }
    println!(
        "status figures: {} codes match opbase's declarations",
        canns.len()
    );
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
