//! The SoCs of each Ascend product: CANN's SoC names and the platform facts kernels and tiling
//! are sized by (cores, Unified Buffer, clock, GM bandwidth).
//!
//! The figures are those of CANN's platform descriptions (`platform_config/<SoC>.ini`:
//! `[SoCInfo]` ai_core_cnt, cube_core_cnt, vector_core_cnt; `[AICoreSpec]` ub_size, cube_freq
//! in MHz; `[AICoreMemoryRates]` ddr_rate and ub_to_ddr_rate in bytes per cycle per core);
//! `tests/it/soc_table.rs` holds every row to `../shared/cann-data/soc/*.ini`.

use crate::vocab::Product;

/// One SoC as CANN's platform description gives it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Soc {
    /// `SoC_version` (`Ascend910B2`): what `--soc`, the sim and msOpGen name.
    pub name: &'static str,
    /// `Short_SoC_version` (`Ascend910B`): the family OpDef's `AddConfig` configures.
    pub short: &'static str,
    /// The product id docs and the IR use, where aclgen knows the family.
    pub product: Option<Product>,
    /// `NpuArch` (`2201`): the `__NPU_ARCH__` kernels are built for.
    pub npu_arch: u32,
    pub ai_cores: u32,
    /// 0 where the SoC has no separate cube cores (one core type).
    pub cube_cores: u32,
    /// 0 where vector work runs on the AI cores themselves.
    pub vector_cores: u32,
    /// Unified Buffer bytes per AI core.
    pub ub_bytes: u32,
    /// AI Core clock, MHz (`cube_freq`).
    pub clock_mhz: u32,
    /// GM (DDR) bytes per cycle per core; 0 where the description gives none.
    pub ddr_rate: u32,
    /// UB → GM bytes per cycle per core; 0 where the description gives none.
    pub ub_to_ddr_rate: u32,
}

impl Soc {
    /// The cores an elementwise vector kernel spreads over: vector cores where the SoC has them,
    /// else AI cores.
    pub fn vector_core_count(&self) -> u32 {
        if self.vector_cores > 0 {
            self.vector_cores
        } else {
            self.ai_cores
        }
    }
}

macro_rules! socs {
    ($($name:literal $short:literal $product:ident $arch:literal: $ai:literal $cube:literal $vec:literal
       ub $ub:literal clock $clock:literal ddr $ddr:literal ub_to_ddr $u2d:literal;)+) => {
        /// Every SoC of `cann-data/soc`, by name.
        pub const SOCS: &[Soc] = &[$(Soc {
            name: $name,
            short: $short,
            product: socs!(@product $product),
            npu_arch: $arch,
            ai_cores: $ai,
            cube_cores: $cube,
            vector_cores: $vec,
            ub_bytes: $ub,
            clock_mhz: $clock,
            ddr_rate: $ddr,
            ub_to_ddr_rate: $u2d,
        }),+];
    };
    (@product none) => { None };
    (@product $p:ident) => { Some(Product::$p) };
}

socs! {
    "Ascend031" "Ascend031" none 3004: 1 0 1 ub 30720 clock 330 ddr 17 ub_to_ddr 128;
    "Ascend035" "Ascend035" none 3505: 1 0 0 ub 32768 clock 150 ddr 0 ub_to_ddr 0;
    "Ascend035A" "Ascend035" none 3505: 1 0 0 ub 131072 clock 200 ddr 0 ub_to_ddr 0;
    "Ascend035B" "Ascend035" none 3505: 1 0 0 ub 262144 clock 200 ddr 0 ub_to_ddr 0;
    "Ascend310B1" "Ascend310B" Ascend310b 3002: 1 1 1 ub 253952 clock 1224 ddr 17 ub_to_ddr 128;
    "Ascend310B2" "Ascend310B" Ascend310b 3002: 1 1 1 ub 253952 clock 1224 ddr 17 ub_to_ddr 128;
    "Ascend310B3" "Ascend310B" Ascend310b 3002: 1 1 1 ub 253952 clock 1224 ddr 17 ub_to_ddr 128;
    "Ascend310B4" "Ascend310B" Ascend310b 3002: 1 1 1 ub 253952 clock 500 ddr 8 ub_to_ddr 64;
    "Ascend310P1" "Ascend310P" Ascend310p 2002: 10 0 8 ub 262144 clock 1060 ddr 17 ub_to_ddr 17;
    "Ascend310P3" "Ascend310P" Ascend310p 2002: 8 0 7 ub 262144 clock 1060 ddr 17 ub_to_ddr 17;
    "Ascend310P5" "Ascend310P" Ascend310p 2002: 8 0 7 ub 262144 clock 800 ddr 17 ub_to_ddr 17;
    "Ascend310P7" "Ascend310P" Ascend310p 2002: 8 0 7 ub 262144 clock 550 ddr 17 ub_to_ddr 17;
    "Ascend910A" "Ascend910" Ascend910 1001: 32 0 0 ub 262144 clock 1000 ddr 32 ub_to_ddr 64;
    "Ascend910B" "Ascend910" Ascend910 1001: 30 0 0 ub 262144 clock 900 ddr 32 ub_to_ddr 64;
    "Ascend910B1" "Ascend910B" Ascend910b 2201: 24 24 48 ub 196608 clock 1850 ddr 32 ub_to_ddr 64;
    "Ascend910B2" "Ascend910B" Ascend910b 2201: 24 24 48 ub 196608 clock 1800 ddr 32 ub_to_ddr 64;
    "Ascend910B2C" "Ascend910B" Ascend910b 2201: 24 24 48 ub 196608 clock 1800 ddr 32 ub_to_ddr 64;
    "Ascend910B3" "Ascend910B" Ascend910b 2201: 20 20 40 ub 196608 clock 1800 ddr 32 ub_to_ddr 64;
    "Ascend910B4" "Ascend910B" Ascend910b 2201: 20 20 40 ub 196608 clock 1500 ddr 32 ub_to_ddr 64;
    "Ascend910B4-1" "Ascend910B" Ascend910b 2201: 20 20 40 ub 196608 clock 1500 ddr 32 ub_to_ddr 64;
    "Ascend910PremiumA" "Ascend910" Ascend910 1001: 32 0 0 ub 262144 clock 1220 ddr 32 ub_to_ddr 64;
    "Ascend910ProA" "Ascend910" Ascend910 1001: 32 0 0 ub 262144 clock 1100 ddr 32 ub_to_ddr 64;
    "Ascend910ProB" "Ascend910" Ascend910 1001: 30 0 0 ub 262144 clock 1150 ddr 32 ub_to_ddr 64;
    "Ascend910_9362" "Ascend910_93" Ascend910_93 2201: 20 20 40 ub 196608 clock 1500 ddr 32 ub_to_ddr 64;
    "Ascend910_9363" "Ascend910_93" Ascend910_93 2201: 20 20 40 ub 196608 clock 1500 ddr 32 ub_to_ddr 64;
    "Ascend910_9372" "Ascend910_93" Ascend910_93 2201: 20 20 40 ub 196608 clock 1800 ddr 32 ub_to_ddr 64;
    "Ascend910_9381" "Ascend910_93" Ascend910_93 2201: 24 24 48 ub 196608 clock 1800 ddr 32 ub_to_ddr 64;
    "Ascend910_9382" "Ascend910_93" Ascend910_93 2201: 24 24 48 ub 196608 clock 1800 ddr 32 ub_to_ddr 64;
    "Ascend910_9391" "Ascend910_93" Ascend910_93 2201: 24 24 48 ub 196608 clock 1850 ddr 32 ub_to_ddr 64;
    "Ascend910_9392" "Ascend910_93" Ascend910_93 2201: 24 24 48 ub 196608 clock 1850 ddr 32 ub_to_ddr 64;
}

/// The SoC named `name` (`Ascend910B2`, case-insensitive).
pub fn soc(name: &str) -> Option<&'static Soc> {
    SOCS.iter().find(|s| s.name.eq_ignore_ascii_case(name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_described_product_has_its_reference_soc_in_its_family() {
        for p in Product::ALL {
            if let Some(s) = p.reference_soc() {
                assert_eq!(s.product, Some(*p), "{}", s.name);
                assert!(p.socs().any(|f| f.name == s.name));
            }
        }
        assert_eq!(soc("ascend910b2").map(|s| s.vector_core_count()), Some(48));
        assert_eq!(soc("Ascend910A").map(|s| s.vector_core_count()), Some(32));
        assert!(soc("Ascend999").is_none());
    }
}
