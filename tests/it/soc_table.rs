//! The project's SoC table (`aclnn_runtime::soc`) against CANN's platform descriptions,
//! `../shared/cann-data/soc/*.ini` (skipped with a message where `../shared` is absent): every
//! .ini has its row, every row its .ini, and every figure is the .ini's.

use crate::common;
use aclnn_runtime::soc::{soc, SOCS};
use std::collections::BTreeMap;

/// `[section] key=value` of one .ini, keyed `section.key`; a later duplicate key wins, as in
/// CANN's platform reader.
fn read_ini(text: &str) -> BTreeMap<String, String> {
    let mut section = String::new();
    let mut out = BTreeMap::new();
    for line in text.lines().map(str::trim) {
        if let Some(name) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            section = name.to_string();
        } else if let Some((k, v)) = line.split_once('=') {
            if !line.starts_with('#') {
                out.insert(format!("{section}.{}", k.trim()), v.trim().to_string());
            }
        }
    }
    out
}

fn num(ini: &BTreeMap<String, String>, key: &str) -> u32 {
    ini.get(key)
        .filter(|v| !v.is_empty())
        .map_or(0, |v| v.parse().unwrap_or_else(|_| panic!("{key}={v}")))
}

#[test]
fn soc_table_matches_canns_platform_descriptions() {
    let dir = common::repo().join("../shared/cann-data/soc");
    if !dir.is_dir() {
        println!("skipped: ../shared/cann-data/soc is absent; the SoC table is not compared");
        return;
    }
    let mut seen = 0;
    for path in common::files_with_ext(&dir, "ini") {
        let ini = read_ini(&std::fs::read_to_string(&path).unwrap());
        let name = &ini["version.SoC_version"];
        let row = soc(name).unwrap_or_else(|| panic!("{name} ({}) has no row", path.display()));
        let at = path.display();
        assert_eq!(row.name, name.as_str(), "{at}");
        assert_eq!(row.short, ini["version.Short_SoC_version"], "{at}");
        assert_eq!(row.npu_arch, num(&ini, "version.NpuArch"), "{at}");
        assert_eq!(row.ai_cores, num(&ini, "SoCInfo.ai_core_cnt"), "{at}");
        assert_eq!(row.cube_cores, num(&ini, "SoCInfo.cube_core_cnt"), "{at}");
        assert_eq!(
            row.vector_cores,
            num(&ini, "SoCInfo.vector_core_cnt"),
            "{at}"
        );
        assert_eq!(row.ub_bytes, num(&ini, "AICoreSpec.ub_size"), "{at}");
        assert_eq!(row.clock_mhz, num(&ini, "AICoreSpec.cube_freq"), "{at}");
        assert_eq!(
            row.ddr_rate,
            num(&ini, "AICoreMemoryRates.ddr_rate"),
            "{at}"
        );
        let u2d = num(&ini, "AICoreMemoryRates.ub_to_ddr_rate");
        assert_eq!(row.ub_to_ddr_rate, u2d, "{at}");
        if let Some(product) = row.product {
            // A product's family is its short name, lower-cased (`Ascend910B` → ascend910b).
            assert_eq!(
                product.soc_version(),
                row.short.to_ascii_lowercase(),
                "{at}"
            );
        }
        seen += 1;
    }
    assert_eq!(seen, SOCS.len(), "a row of the table has no .ini");
    println!("soc figures: {seen} SoCs of cann-data/soc match the table");
}
