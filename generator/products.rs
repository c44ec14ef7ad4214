//! Product names in docs: how docs spell each Ascend product, and its stable id.
//!
//! Full names ("Atlas A2 训练系列产品/Atlas 800I A2 推理产品") are what product sections and notes
//! use (`find_products`); conditions also use short forms ("A2", "910B"; `products_in`). Both
//! come from the one table of products, `aclnn_runtime::PRODUCTS`.

use crate::ir::ProductId;
use aclnn_runtime::{Product, PRODUCTS};
use regex::Regex;
use std::sync::LazyLock;

/// One product name found in a text, with its byte span.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    pub id: ProductId,
    pub span: std::ops::Range<usize>,
}

/// A word every product name contains (a test holds it to `PRODUCTS`).
const PRODUCT_WORDS: [&str; 6] = ["Atlas", "Ascend", "A2", "A3", "昇腾", "Kirin"];

/// The full names, one regex each with its id, in table order.
static PRODUCT_PATTERNS: LazyLock<Vec<(Regex, &'static str)>> = LazyLock::new(|| {
    PRODUCTS
        .iter()
        .flat_map(|p| p.doc_names.iter().map(move |n| (n, p.product.id())))
        .map(|(n, id)| (Regex::new(n).expect("product name pattern"), id))
        .collect()
});

/// Every short form of every product in one case-insensitive regex (what to find), and each
/// product's forms anchored (which product a match is).
static PRODUCT_TOKENS: LazyLock<Regex> = LazyLock::new(|| {
    let all: Vec<&str> = PRODUCTS
        .iter()
        .flat_map(|p| p.doc_tokens.iter().copied())
        .collect();
    Regex::new(&format!("(?i){}", all.join("|"))).expect("product token pattern")
});

static TOKEN_IDS: LazyLock<Vec<(Regex, &'static str)>> = LazyLock::new(|| {
    PRODUCTS
        .iter()
        .map(|p| {
            let anchored = format!("(?i)^(?:{})$", p.doc_tokens.join("|"));
            (
                Regex::new(&anchored).expect("product token pattern"),
                p.product.id(),
            )
        })
        .collect()
});

/// The SoC a test runs on when it switches none: CANN builds each op's unit tests for a SoC
/// the op supports (`build.sh -u --soc=...`), the first of `Product::build_order` it supports.
pub fn build_product(op: &crate::ir::OpIr) -> &'static str {
    let supported: Vec<&str> = op.supported_products().collect();
    Product::build_order()
        .map(Product::id)
        .find(|p| supported.contains(p))
        .unwrap_or(Product::first_built().id())
}

#[cfg(test)]
mod prefilter_tests {
    use super::*;

    #[test]
    fn every_product_pattern_contains_a_prefilter_word() {
        // A pattern the prefilter would hide: its samples must still be found.
        for sample in [
            "Ascend 950PR",
            "Atlas 200I/500 A2 推理产品",
            "A3 训练系列产品",
            "昇腾910_93 AI处理器",
            "A2 训练系列产品",
            "Atlas 800I A2 推理产品",
            "A200I A2 Box 异构组件",
            "昇腾910B AI处理器",
            "Atlas 推理系列产品",
            "Ascend 310P",
            "Atlas 训练系列产品",
            "昇腾910 AI处理器",
            "Kirin 9000",
        ] {
            assert!(!find_products(sample).is_empty(), "{sample}");
        }
        assert!(
            PRODUCT_PATTERNS.iter().all(|(re, _)| PRODUCT_WORDS
                .iter()
                .any(|w| re.as_str().contains(w) || (re.as_str().contains("昇腾|Ascend")))),
            "a pattern without a prefilter word"
        );
    }
}

/// Every known product name in `text`, in text order, without overlaps.
pub fn find_products(text: &str) -> Vec<Found> {
    let mut found: Vec<Found> = Vec::new();
    // Every pattern names one of these; most lines name none, and then no regex has to run.
    if !PRODUCT_WORDS.iter().any(|w| text.contains(w)) {
        return found;
    }
    for (re, id) in PRODUCT_PATTERNS.iter() {
        for m in re.find_iter(text) {
            let overlaps = found
                .iter()
                .any(|f| f.span.start < m.end() && m.start() < f.span.end);
            if !overlaps {
                found.push(Found {
                    id: (*id).into(),
                    span: m.range(),
                });
            }
        }
    }
    found.sort_by_key(|f| f.span.start);
    found
}

/// Ids of `<!-- npu="..." -->` markers (`950`, `A3`, `910b`, `310b`, `310p`, `910`).
pub fn npu_marker_id(token: &str) -> String {
    match Product::from_npu_marker(token) {
        Some(p) => p.id().to_string(),
        None => format!("npu_{}", slug(&token.trim().to_ascii_lowercase())),
    }
}

/// A stable id for a product name aclgen does not know.
pub fn slug(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars() {
        if c.is_alphanumeric() {
            out.extend(c.to_lowercase());
        } else if !out.ends_with('_') && !out.is_empty() {
            out.push('_');
        }
    }
    let out = out.trim_end_matches('_');
    if out.is_empty() {
        "unknown".to_string()
    } else {
        out.to_string()
    }
}

/// The product ids named in `text` ("Atlas 推理系列产品、Atlas 训练系列产品" → ascend310p,
/// ascend910), sorted and deduplicated.
pub fn products_in(text: &str) -> Vec<String> {
    let mut ids: Vec<String> = PRODUCT_TOKENS
        .find_iter(text)
        .filter(|m| ascii_bounded(text, m.start(), m.end()))
        .filter_map(|m| {
            let (_, id) = TOKEN_IDS.iter().find(|(re, _)| re.is_match(m.as_str()))?;
            Some(id.to_string())
        })
        .collect();
    ids.sort();
    ids.dedup();
    ids
}

/// A bare token like "A2" must not sit inside a longer ASCII word.
fn ascii_bounded(text: &str, start: usize, end: usize) -> bool {
    let before = text[..start].chars().next_back();
    let after = text[end..].chars().next();
    let word = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_');
    !word(before) && !word(after)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn product_names_map_to_ids() {
        assert_eq!(
            products_in("Atlas 推理系列产品、Atlas 训练系列产品：支持范围为[-255,255]"),
            vec!["ascend310p", "ascend910"]
        );
        assert_eq!(products_in("Ascend 950PR/Ascend 950DT"), vec!["ascend950"]);
        assert_eq!(
            products_in("A2、A3的depth * height * width"),
            vec!["ascend910_93", "ascend910b"]
        );
        assert_eq!(products_in("Atlas 200I/500 A2推理产品"), vec!["ascend310b"]);
        assert!(products_in("kernelSizeA2").is_empty());
        // A short name runs to "产品" or the end, never over a conjunction into the next one.
        assert_eq!(
            products_in("Atlas A2 或 Atlas A3"),
            vec!["ascend910_93", "ascend910b"]
        );
        assert_eq!(
            products_in("Atlas A2 训练系列产品和Atlas A3 训练系列产品"),
            vec!["ascend910_93", "ascend910b"]
        );
    }
}
