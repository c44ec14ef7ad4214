//! The one table of Ascend products: every name a product goes by (the docs', CANN's SoC names,
//! the op_api UT framework's), the order CANN builds an op's tests in, and the SoC whose figures
//! stand for the product (`soc.rs`). Every other place looks a product up here.

use crate::soc::{soc, Soc};
use crate::vocab::Product;

/// Everything known of one product, one row of [`PRODUCTS`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ProductInfo {
    pub product: Product,
    /// Full names, as product sections and notes write them (regexes: "Atlas A2 训练系列产品").
    pub doc_names: &'static [&'static str],
    /// Shorter forms conditions use ("A2", "910B"; regexes, case-insensitive, whole tokens).
    pub doc_tokens: &'static [&'static str],
    /// Tokens of the docs' `<!-- npu="..." -->` markers, lower-case.
    pub npu_markers: &'static [&'static str],
    /// The `op::SocVersion` enumerator of CANN's op_api UT framework (`ASCEND910B`; for kirin
    /// the framework names SoCs, KIRINX90 is the first).
    pub ut_soc: &'static str,
    /// Lower-case prefixes of CANN test names written for one SoC of the product
    /// ("ascend910B2_…"); the longest matching prefix names the product.
    pub test_prefixes: &'static [&'static str],
    /// Position in the order CANN builds an op's unit tests for (Atlas A2 first); `None`: never
    /// the product a test runs on by default.
    pub build_rank: Option<u8>,
    /// The SoC (`soc.rs`) whose figures stand for the product: the full-size part of the family.
    pub reference_soc: Option<&'static str>,
    /// Unified Buffer bytes and vector cores where CANN's data has no SoC of the product.
    pub undescribed: (usize, u32),
    /// Whether an msOpGen custom op project builds for it (the SoCs of msOpGen's example).
    pub msopgen: bool,
}

/// Every product, most specific doc name first: a reader tries `doc_names` and `doc_tokens` in
/// this order, so "Atlas 200I/500 A2" is ascend310b before "A2" can make it ascend910b.
pub const PRODUCTS: &[ProductInfo] = &[
    ProductInfo {
        product: Product::Ascend950,
        doc_names: &[r"Ascend\s*950\s*(?:PR|DT)?(?:\s*/\s*Ascend\s*950\s*(?:PR|DT)?)?"],
        doc_tokens: &[r"Ascend\s*950(?:PR|DT)?", "950PR", "950DT"],
        npu_markers: &["950"],
        ut_soc: "ASCEND950",
        // Ascend910_95xx (dav-c310) is the 950 family.
        test_prefixes: &["ascend950", "ascend91095", "ascend910_95"],
        build_rank: Some(1),
        reference_soc: None,
        undescribed: (248 * 1024, 64),
        msopgen: true,
    },
    ProductInfo {
        product: Product::Ascend310b,
        doc_names: &[r"Atlas\s*200I\s*/\s*500\s*A2\s*推理产品"],
        doc_tokens: &[
            r"Atlas\s*200I/500\s*A2[^、，,：:或和与及]*?(?:产品|$)",
            r"200I/500\s*A2",
            "310B",
        ],
        npu_markers: &["310b"],
        ut_soc: "ASCEND310B",
        test_prefixes: &[],
        build_rank: Some(5),
        reference_soc: Some("Ascend310B1"),
        undescribed: (192 * 1024, 1),
        msopgen: false,
    },
    ProductInfo {
        product: Product::Ascend910_93,
        doc_names: &[
            r"(?:Atlas\s*)?A3(?:\s*(?:训练|推理))?\s*系列(?:产品)?",
            r"(?:昇腾|Ascend)\s*910_93(?:\s*AI\s*处理器)?",
        ],
        doc_tokens: &[r"Atlas\s*A3[^、，,：:或和与及]*?(?:产品|$)", "A3", "910_93"],
        npu_markers: &["a3", "910_93"],
        ut_soc: "ASCEND910_93",
        test_prefixes: &["ascend910_93", "ascend910a3"],
        build_rank: Some(2),
        reference_soc: Some("Ascend910_9391"),
        undescribed: (192 * 1024, 1),
        msopgen: true,
    },
    ProductInfo {
        product: Product::Ascend910b,
        doc_names: &[
            r"(?:Atlas\s*)?A2(?:\s*(?:训练|推理))?\s*系列(?:产品)?",
            r"Atlas\s*(?:800[IT]|900)\s*A2(?:\s*PoD)?(?:\s*(?:推理|训练)产品)?",
            r"A200I\s*A2\s*Box\s*(?:异构组件)?",
            r"(?:昇腾|Ascend)\s*910B\d?(?:\s*AI\s*处理器)?",
        ],
        doc_tokens: &[
            r"Atlas\s*A2[^、，,：:或和与及]*?(?:产品|组件|$)",
            r"Atlas\s*800I\s*A2[^、，,：:或和与及]*?(?:产品|$)",
            "A2",
            "910B",
        ],
        npu_markers: &["910b", "a2"],
        ut_soc: "ASCEND910B",
        test_prefixes: &["ascend910b"],
        build_rank: Some(0),
        reference_soc: Some("Ascend910B2"),
        undescribed: (192 * 1024, 1),
        msopgen: true,
    },
    ProductInfo {
        product: Product::Ascend310p,
        doc_names: &[
            r"Atlas\s*(?:310P\s*)?推理系列(?:产品|加速卡产品)?",
            r"(?:昇腾|Ascend)\s*310P(?:\s*AI\s*处理器)?",
        ],
        doc_tokens: &[r"Atlas\s*推理系列(?:产品)?", "310P"],
        npu_markers: &["310p"],
        ut_soc: "ASCEND310P",
        test_prefixes: &["ascend310p"],
        build_rank: Some(3),
        reference_soc: Some("Ascend310P1"),
        undescribed: (192 * 1024, 1),
        msopgen: false,
    },
    ProductInfo {
        product: Product::Ascend910,
        doc_names: &[
            r"Atlas\s*训练系列(?:产品)?",
            r"(?:昇腾|Ascend)\s*910(?:\s*AI\s*处理器)?",
        ],
        doc_tokens: &[r"Atlas\s*训练系列(?:产品)?", r"昇腾\s*910\s*AI"],
        npu_markers: &["910"],
        ut_soc: "ASCEND910",
        test_prefixes: &["ascend910a", "ascend910_"],
        build_rank: Some(4),
        reference_soc: Some("Ascend910A"),
        undescribed: (192 * 1024, 1),
        msopgen: false,
    },
    ProductInfo {
        product: Product::Kirin,
        doc_names: &[r"Kirin\s*[0-9A-Za-z]+"],
        doc_tokens: &["Kirin"],
        npu_markers: &[],
        ut_soc: "KIRINX90",
        test_prefixes: &[],
        build_rank: None,
        reference_soc: None,
        undescribed: (192 * 1024, 1),
        msopgen: false,
    },
];

impl Product {
    /// The product's row of [`PRODUCTS`] (every product has one: a test holds the table to it).
    pub const fn info(self) -> &'static ProductInfo {
        let mut i = 0;
        while i < PRODUCTS.len() {
            if PRODUCTS[i].product as u8 == self as u8 {
                return &PRODUCTS[i];
            }
            i += 1;
        }
        panic!("a product without a row in PRODUCTS")
    }

    /// The product of an op_api UT framework's `op::SocVersion` enumerator (`ASCEND910B`).
    pub fn from_ut_soc(soc: &str) -> Option<Product> {
        PRODUCTS.iter().find(|p| p.ut_soc == soc).map(|p| p.product)
    }

    /// The product a CANN test name written for one SoC starts with ("ascend910B2_…"), by the
    /// longest prefix of any product.
    pub fn from_test_name(test: &str) -> Option<Product> {
        let t = test.to_ascii_lowercase();
        PRODUCTS
            .iter()
            .flat_map(|p| p.test_prefixes.iter().map(move |pre| (pre, p.product)))
            .filter(|(pre, _)| t.starts_with(**pre))
            .max_by_key(|(pre, _)| pre.len())
            .map(|(_, p)| p)
    }

    /// The product of a docs' `<!-- npu="..." -->` marker token (`A3`, `910b`).
    pub fn from_npu_marker(token: &str) -> Option<Product> {
        let t = token.trim().to_ascii_lowercase();
        PRODUCTS
            .iter()
            .find(|p| p.npu_markers.contains(&t.as_str()))
            .map(|p| p.product)
    }

    /// The products in the order CANN builds an op's tests for: Atlas A2 first.
    pub fn build_order() -> impl Iterator<Item = Product> {
        let mut ranked: Vec<(u8, Product)> = PRODUCTS
            .iter()
            .filter_map(|p| Some((p.build_rank?, p.product)))
            .collect();
        ranked.sort();
        ranked.into_iter().map(|(_, p)| p)
    }

    /// The product an op's tests run on when none is named and the op supports it.
    pub fn first_built() -> Product {
        Product::build_order().next().unwrap_or(Product::Ascend910b)
    }

    /// The SoC a product's figures (default core count, UB size) are taken from, where CANN's
    /// platform descriptions have one: the full-size part of the family (Ascend910B2: 48 vector
    /// cores). `ascend950` and `kirin` have no description in `cann-data`.
    pub fn reference_soc(self) -> Option<&'static Soc> {
        soc(self.info().reference_soc?)
    }

    /// The SoCs of the product's family, in table order.
    pub fn socs(self) -> impl Iterator<Item = &'static Soc> {
        crate::soc::SOCS
            .iter()
            .filter(move |s| s.product == Some(self))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_product_has_one_row() {
        for p in Product::ALL {
            assert_eq!(
                PRODUCTS.iter().filter(|r| r.product == *p).count(),
                1,
                "{p}"
            );
            assert_eq!(p.info().product, *p);
        }
    }

    #[test]
    fn names_lead_to_their_products() {
        assert_eq!(
            Product::from_ut_soc("ASCEND910B"),
            Some(Product::Ascend910b)
        );
        assert_eq!(Product::from_ut_soc("ASCEND"), None);
        assert_eq!(
            Product::from_test_name("ascend910_9391_case"),
            Some(Product::Ascend910_93)
        );
        assert_eq!(
            Product::from_test_name("Ascend910_9589_x"),
            Some(Product::Ascend950)
        );
        assert_eq!(
            Product::from_test_name("ascend910_x"),
            Some(Product::Ascend910)
        );
        assert_eq!(
            Product::from_test_name("ascend910B2_x"),
            Some(Product::Ascend910b)
        );
        assert_eq!(Product::from_test_name("case_1"), None);
        assert_eq!(
            Product::from_npu_marker(" A3 "),
            Some(Product::Ascend910_93)
        );
        let order: Vec<&str> = Product::build_order().map(Product::id).collect();
        assert_eq!(
            order,
            [
                "ascend910b",
                "ascend950",
                "ascend910_93",
                "ascend310p",
                "ascend910",
                "ascend310b"
            ]
        );
    }
}
