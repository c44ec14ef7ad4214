//! Overlays: a YAML file that corrects one doc's op, each patch naming what it matches.

use super::schema::at_key;
use super::schema::line_of_key;
use super::schema::source_line;
use super::schema::ErrorsPatch;
use super::schema::Overlay;
use super::schema::ParamPatch;
use crate::diag::Code;
use crate::ir::{Diagnostic, ErrorCase, OpIr, Param, Severity};
use aclnn_runtime::Product;

// ---------------------------------------------------------------------------------------------
// Overlays

/// Applies an overlay to the op it names. Each patch that matches nothing is an error
/// diagnostic at the overlay's line; the rest still applies.
pub fn apply_overlay(op: &mut OpIr, overlay: &Overlay, path: &str, text: &str) -> Vec<Diagnostic> {
    let mut diags = Vec::new();
    let mut miss = |key: &str, message: String| diags.push(at_key(path, text, key, message));
    for (id, support) in &overlay.products {
        match support {
            Some(true) => {
                op.products.insert(id.clone(), true);
            }
            // Dtypes are listed for supported products only.
            Some(false) => {
                op.products.insert(id.clone(), false);
                for p in &mut op.params {
                    p.dtypes.remove(id);
                }
            }
            None => {
                if op.products.remove(id).is_none() {
                    miss(id, format!("product `{id}` to remove is not in the doc"));
                }
                for p in &mut op.params {
                    p.dtypes.remove(id);
                }
            }
        }
        if Product::parse(id).is_none() {
            miss(id, format!("unknown product id `{id}`"));
        }
    }
    set_if(&mut op.description, &overlay.description);
    if overlay.formula.is_some() {
        op.formula.clone_from(&overlay.formula);
    }
    if overlay.header.is_some() {
        op.header.clone_from(&overlay.header);
    }
    if overlay.example.is_some() {
        op.example.clone_from(&overlay.example);
    }
    for (name, patch) in &overlay.functions {
        match op.functions.iter_mut().find(|f| &f.name == name) {
            Some(f) => {
                set_if(&mut f.return_type, &patch.return_type);
                if let Some(params) = &patch.params {
                    f.params.clone_from(params);
                }
            }
            None => miss(name, format!("function `{name}` is not in the doc")),
        }
    }
    for (name, patch) in &overlay.params {
        let Some(index) = op.params.iter().position(|p| &p.name == name) else {
            miss(name, format!("parameter `{name}` is not in the doc"));
            continue;
        };
        if patch.remove {
            op.params.remove(index);
        } else if let Err(e) = patch_param(&mut op.params[index], patch) {
            miss(
                name,
                format!("parameter `{name}`: the patch does not apply ({e})"),
            );
        }
    }
    patch_errors(op, &overlay.errors, &mut miss);
    for text in &overlay.constraints.remove {
        let before = op.constraints.len();
        op.constraints.retain(|c| !c.contains(text.as_str()));
        if op.constraints.len() == before {
            miss("remove", format!("no constraint contains `{text}`"));
        }
    }
    op.constraints
        .extend(overlay.constraints.add.iter().cloned());
    op.sources.push(path.to_string());
    op.diagnostics.push(Diagnostic::at(
        Severity::Note,
        Code::OverlayApplied,
        format!("overlay applied: {}", overlay.reason.trim()),
        path,
        line_of_key(text, "reason"),
        0,
        source_line(text, line_of_key(text, "reason")),
    ));
    diags
}

fn set_if<T: Clone>(field: &mut T, value: &Option<T>) {
    if let Some(v) = value {
        field.clone_from(v);
    }
}

/// Sets each field the patch gives, by its name in `Param` (the patch's fields are `Param`'s,
/// see `ParamPatch`), so a field made patchable needs no code here; `dtypes` patch per product.
fn patch_param(p: &mut Param, patch: &ParamPatch) -> Result<(), serde_yaml::Error> {
    use serde_yaml::Value;
    let Value::Mapping(mut fields) = serde_yaml::to_value(&*p)? else {
        return Err(serde::ser::Error::custom("the parameter is no mapping"));
    };
    if let Value::Mapping(set) = serde_yaml::to_value(patch)? {
        // A field the patch leaves out is not serialized; its own keys are applied below.
        let own = |k: &Value| {
            k.as_str()
                .is_some_and(|k| ParamPatch::OWN_KEYS.contains(&k))
        };
        fields.extend(set.into_iter().filter(|(k, v)| !own(k) && !v.is_null()));
    }
    let mut patched: Param = serde_yaml::from_value(Value::Mapping(fields))?;
    for (product, dtypes) in &patch.dtypes {
        match dtypes {
            Some(list) => {
                patched.dtypes.insert(product.clone(), list.clone());
            }
            None => {
                patched.dtypes.remove(product);
            }
        }
    }
    *p = patched;
    Ok(())
}

fn error_matches(e: &ErrorCase, code: u32, condition: &Option<String>) -> bool {
    e.code == code
        && condition
            .as_deref()
            .is_none_or(|c| e.condition.contains(c.trim()))
}

fn patch_errors(op: &mut OpIr, patch: &ErrorsPatch, miss: &mut impl FnMut(&str, String)) {
    for m in &patch.remove {
        let before = op.errors.len();
        op.errors
            .retain(|e| !error_matches(e, m.code, &m.condition));
        if op.errors.len() == before {
            miss(
                "remove",
                format!("no error case {} matches the removal", m.code),
            );
        }
    }
    for r in &patch.replace {
        let mut hit = false;
        for e in op.errors.iter_mut() {
            if error_matches(e, r.code, &r.condition) {
                let source = e.source.take();
                *e = r.with.clone();
                e.source = source;
                hit = true;
            }
        }
        if !hit {
            miss(
                "replace",
                format!("no error case {} matches the replacement", r.code),
            );
        }
    }
    op.errors.extend(patch.add.iter().cloned());
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::specs::testing::*;
    // --- overlays -----------------------------------------------------------------------

    fn overlay(text: &str) -> Overlay {
        match parse_spec("ops/Foo.yaml", text).expect("overlay parses") {
            SpecFile::Overlay(o) => o,
            SpecFile::Full(_) => panic!("not an overlay"),
        }
    }

    #[test]
    fn overlay_patches_every_kind_of_field() {
        let mut op = sample_op("Foo", "a.txt");
        op.functions[0].return_type = String::new();
        let diags = apply_overlay(&mut op, &overlay(OVERLAY), "ops/Foo.yaml", OVERLAY);
        assert!(diags.is_empty(), "{diags:?}");
        assert_eq!(op.products.get("ascend910_93"), Some(&true));
        assert!(!op.products.contains_key("ascend910"));
        assert_eq!(op.header.as_deref(), Some("aclnn_foo.h"));
        assert_eq!(op.functions[0].return_type, "aclnnStatus");
        let p = &op.params[0];
        assert_eq!(p.dtypes["ascend910_93"], [DType::Float16]);
        assert_eq!(p.dtypes["ascend910b"], [DType::Float16, DType::Float32]);
        assert_eq!(p.rank, Some(Rank { min: 1, max: 8 }));
        assert!(p.optional);
        let codes: Vec<u32> = op.errors.iter().map(|e| e.code).collect();
        assert_eq!(codes, [161002, 561103]);
        assert_eq!(op.errors[0].condition, "self的数据类型不支持");
        assert_eq!(op.errors[0].source, loc("a.txt", 10));
        assert_eq!(op.constraints, ["确定性计算"]);
        assert_eq!(op.sources, ["a.txt", "ops/Foo.yaml"]);
        assert!(op
            .diagnostics
            .iter()
            .any(|d| d.code == "overlay-applied" && d.message.contains("damaged")));
    }

    #[test]
    fn overlay_patch_that_matches_nothing_is_an_error_at_its_line() {
        let text = "kind: overlay\nop: Foo\nreason: r\nparams:\n  selff:\n    optional: true\nfunctions:\n  aclnnBar:\n    return_type: int\nproducts:\n  ascend999: true\n";
        let mut op = sample_op("Foo", "a.txt");
        let diags = apply_overlay(&mut op, &overlay(text), "ops/Foo.yaml", text);
        let lines: Vec<(usize, bool)> = diags
            .iter()
            .map(|d| (d.line, d.severity == Severity::Error))
            .collect();
        assert!(lines.contains(&(5, true)), "{diags:?}");
        assert!(lines.contains(&(8, true)), "{diags:?}");
        assert!(lines.contains(&(11, true)), "{diags:?}");
    }

    #[test]
    fn overlay_marking_a_product_unsupported_drops_its_dtypes() {
        let text = "kind: overlay\nop: Foo\nreason: r\nproducts: {ascend910b: false}\n";
        let mut op = sample_op("Foo", "a.txt");
        assert!(apply_overlay(&mut op, &overlay(text), "o.yaml", text).is_empty());
        assert_eq!(op.products.get("ascend910b"), Some(&false));
        assert!(op.params[0].dtypes.is_empty());
    }

    #[test]
    fn a_param_patch_sets_each_field_it_names_and_keeps_the_rest() {
        let text = "kind: overlay\nop: Foo\nreason: r\nparams:\n  self:\n    role: in_out_tensor\n    type: aclTensor*\n    description: d\n    formats: [NCHW]\n    non_contiguous: false\n    empty_tensor: true\n    constraints: [c]\n    enum_values: {0: zero}\n    dtypes_given: [{on: other, when: [FLOAT16], allowed: [FLOAT16]}]\n    dtypes: {ascend910b: ~}\n";
        let mut op = sample_op("Foo", "a.txt");
        let mut expected = op.params[0].clone();
        assert!(apply_overlay(&mut op, &overlay(text), "o.yaml", text).is_empty());
        expected.role = Role::InOutTensor;
        expected.ty = "aclTensor*".into();
        expected.description = "d".into();
        expected.formats = vec![Format::Nchw];
        (expected.non_contiguous, expected.empty_tensor) = (Some(false), Some(true));
        expected.constraints = vec!["c".into()];
        expected.enum_values = [(0, "zero".to_string())].into_iter().collect();
        expected.dtypes_given = vec![crate::ir::DtypesGiven {
            on: "other".into(),
            when: vec![DType::Float16],
            allowed: vec![DType::Float16],
            products: Vec::new(),
        }];
        expected.dtypes.remove("ascend910b");
        assert_eq!(op.params[0], expected);
    }

    #[test]
    fn overlay_can_remove_a_parameter() {
        let text = "kind: overlay\nop: Foo\nreason: r\nparams:\n  self: {remove: true}\n";
        let mut op = sample_op("Foo", "a.txt");
        assert!(apply_overlay(&mut op, &overlay(text), "o.yaml", text).is_empty());
        assert!(op.params.is_empty());
    }
}
