//! Product names as docs spell them → stable product ids, and the product section.

use super::markdown::Doc;
use super::text::{clean_inline, Sink};
use crate::diag::Code;
use crate::ir::{ProductId, Severity};
use crate::products::{find_products, slug, Found};
use std::collections::BTreeMap;

/// What a product line says: supported or not (no mark = a plain list of supported products).
fn support_mark(text: &str) -> bool {
    let cell_says_no = text
        .split('|')
        .map(str::trim)
        .any(|c| matches!(c, "x" | "X" | "NO" | "No" | "no" | "否"));
    !(text.contains("不支持") || text.contains('×') || text.contains('✗') || cell_says_no)
}

/// Text left after removing product names, separators and support marks: a damaged or unknown name.
fn leftover(text: &str, found: &[Found]) -> String {
    let mut rest = String::new();
    let mut pos = 0;
    for f in found {
        rest.push_str(&text[pos..f.span.start]);
        rest.push(' ');
        pos = f.span.end;
    }
    rest.push_str(&text[pos..]);
    let rest = rest
        .replace("不支持", " ")
        .replace("支持", " ")
        .replace("是否", " ")
        .replace("产品", " ");
    let marks = ["x", "X", "YES", "NO", "Yes", "No", "?", "否", "是"];
    rest.split(|c: char| c.is_whitespace() || "/、，,。.：:|√×✗-*+()（）".contains(c))
        .filter(|s| !s.is_empty() && !marks.contains(s))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Reads the product section (table, bullet list, npu markers or plain lines) into {id: supported}.
pub fn read_products(doc: &Doc, sink: &mut Sink) -> BTreeMap<ProductId, bool> {
    let mut products = BTreeMap::new();
    let Some(section) = doc.find_section(|t| t.contains("产品") && !t.contains("aclnn")) else {
        sink.file(
            Severity::Warning,
            Code::NoProducts,
            "no product section (产品支持情况)",
        );
        return products;
    };
    for idx in section.body.clone() {
        let raw = doc.line(idx);
        if doc.in_code[idx] || raw.trim().is_empty() || raw.contains("<!--") {
            continue;
        }
        let text = clean_inline(raw);
        if text.contains("产品形态")
            || text.contains("查看源码")
            || text.contains("详细说明")
            || is_table_header(&text)
            || heads_a_table(doc, idx)
            || text.trim_start().starts_with('>')
        {
            // A note quoted below the list ("> 说明：…") or a table's header row ("| 系列 | 型号 |")
            // names no product.
            continue;
        }
        let found = find_products(&text);
        let supported = support_mark(&text);
        if found.is_empty() {
            if let Some(ids) = doc.npu_products(idx) {
                for id in ids {
                    products.insert(id.as_str().into(), supported);
                }
                continue;
            }
            let rest = leftover(&text, &[]);
            if !rest.is_empty() {
                sink.at(
                    Severity::Warning,
                    Code::UnknownProduct,
                    format!("unknown product `{rest}`; kept as `{}`", slug(&rest)),
                    idx,
                    raw,
                );
                products.insert(slug(&rest).into(), supported);
            }
            continue;
        }
        for f in &found {
            products.insert(f.id.clone(), supported);
        }
        let rest = leftover(&text, &found);
        if !rest.is_empty()
            || text.trim_start().starts_with("A2")
            || text.trim_start().starts_with("A3")
        {
            sink.at(
                Severity::Warning,
                Code::DamagedProduct,
                format!(
                    "product line looks damaged (left over: `{rest}`); read as {}",
                    found
                        .iter()
                        .map(|f| f.id.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                idx,
                raw,
            );
        }
    }
    if products.is_empty() {
        sink.at(
            Severity::Warning,
            Code::NoProducts,
            "the product section names no known product",
            section.line,
            doc.line(section.line),
        );
    }
    products
}

/// Whether line `idx` is a pipe table's header row: the next line is its separator ("| --- |").
fn heads_a_table(doc: &Doc, idx: usize) -> bool {
    let next = doc.line(idx + 1).trim();
    doc.line(idx).contains('|')
        && next.contains("---")
        && next.chars().all(|c| "|:- \t".contains(c))
}

fn is_table_header(text: &str) -> bool {
    let t: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    t.is_empty()
        || t.chars().all(|c| "|:-".contains(c))
        || (t.contains("产品") && t.contains("是否支持"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(text: &str) -> Vec<String> {
        find_products(text)
            .into_iter()
            .map(|f| f.id.into())
            .collect()
    }

    #[test]
    fn maps_doc_names_to_ids() {
        assert_eq!(
            ids("Atlas A2训练系列产品/Atlas 800I A2推理产品/Atlas 200I/500 A2推理产品"),
            ["ascend910b", "ascend910b", "ascend310b"]
        );
        assert_eq!(
            ids("<term>Atlas A3 训练系列产品/Atlas A3 推理系列产品</term>"),
            ["ascend910_93", "ascend910_93"]
        );
        assert_eq!(ids("Ascend 950PR/Ascend 950DT"), ["ascend950"]);
        assert_eq!(
            ids("Atlas 推理系列产品、Atlas 训练系列产品"),
            ["ascend310p", "ascend910"]
        );
        assert_eq!(
            ids("昇腾910B AI处理器、昇腾910_93 AI处理器"),
            ["ascend910b", "ascend910_93"]
        );
        assert_eq!(
            ids("Atlas A3 训练系列 / Atlas 310P 推理系列 / Ascend910B4"),
            ["ascend910_93", "ascend310p", "ascend910b"]
        );
        assert_eq!(ids("A200I A2 Box 异构组件"), ["ascend910b"]);
    }

    #[test]
    fn reads_table_bullets_and_markers() {
        let text = "# aclnnX\n## 产品支持情况\n| 产品 | 是否支持 |\n| :-- | :-: |\n| <term>Atlas A3 训练系列产品/Atlas A3 推理系列产品</term> | √ |\n| <term>Atlas 200I/500 A2 推理产品</term> | × |\n- <term>Atlas 训练系列产品</term>：不支持\n<!-- npu=\"950\" id1 -->\n- <term>Ascend 950PR/Ascend 950DT</term>：支持\n<!-- end id1 -->\n## 功能说明";
        let doc = Doc::parse(text);
        let mut sink = Sink::new("x.md");
        let p = read_products(&doc, &mut sink);
        let expect: BTreeMap<ProductId, bool> = [
            ("ascend910_93", true),
            ("ascend310b", false),
            ("ascend910", false),
            ("ascend950", true),
        ]
        .into_iter()
        .map(|(k, v)| (k.into(), v))
        .collect();
        assert_eq!(p, expect);
        assert!(sink.diags.is_empty(), "{:?}", sink.diags);
    }

    #[test]
    fn header_rows_and_quoted_notes_name_no_product() {
        let text = "# aclnnX\n## 产品支持情况\n| 系列 | 芯片型号 | 状态 |\n| --- | --- | --- |\n| <term>Atlas A2 训练系列产品/Atlas A2 推理系列产品</term> | Ascend910B | √ |\n\n> 说明：\n> 本接口在其余产品上未验证。\n## 功能说明";
        let doc = Doc::parse(text);
        let mut sink = Sink::new("x.md");
        let p = read_products(&doc, &mut sink);
        assert_eq!(p.keys().collect::<Vec<_>>(), ["ascend910b"]);
        assert!(sink.diags.is_empty(), "{:?}", sink.diags);
    }

    #[test]
    fn damaged_product_line_is_diagnosed() {
        let doc = Doc::parse("## 支持的产品型号\n\nA2训练系列产品/Atlas\n");
        let mut sink = Sink::new("x.md");
        let p = read_products(&doc, &mut sink);
        assert_eq!(p.get("ascend910b"), Some(&true));
        assert_eq!(sink.diags[0].code, "damaged-product");
        assert_eq!(sink.diags[0].line, 3);
    }
}
