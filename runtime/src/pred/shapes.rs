//! Predicates on formats, ranks, shapes and dims: equalities, ranges, broadcasts, layouts.

use super::*;

pub fn format_in(ts: &[Named], allowed: &[Format]) -> Result<(), String> {
    match ts.iter().find(|(_, t)| !t.format.allowed_by(allowed)) {
        None => Ok(()),
        Some((name, t)) => Err(format!(
            "{name} has format {} (supported: {})",
            t.format,
            join(allowed)
        )),
    }
}

pub fn format_same(ts: &[Named]) -> Result<(), String> {
    same_by(ts, "format", |t| t.format.to_string())
}

pub fn rank_in(ts: &[Named], min: usize, max: usize) -> Result<(), String> {
    match ts.iter().find(|(_, t)| t.rank() < min || t.rank() > max) {
        None => Ok(()),
        Some((name, t)) => Err(format!(
            "{name} has {} dims (supported: {})",
            t.rank(),
            if min == max {
                min.to_string()
            } else {
                format!("{min} to {max}")
            }
        )),
    }
}

pub fn rank_same(ts: &[Named]) -> Result<(), String> {
    same_by(ts, "rank", |t| t.rank().to_string())
}

pub fn shape_same(ts: &[Named]) -> Result<(), String> {
    let key = |t: &TensorDesc| format!("{:?}", t.shape);
    let bases: std::collections::BTreeSet<&str> =
        ts.iter().map(|(n, _)| list_element(n).0).collect();
    if bases.len() < 2 || ts.iter().all(|(n, _)| list_element(n).1.is_none()) {
        return same_by(ts, "shape", key);
    }
    // Tensor lists are matched element by element ("x1、x2的shape一致": x1[i] with x2[i]; CANN's
    // foreach examples pass lists whose elements differ); a plain tensor matches every element.
    let plain: Vec<Named> = ts
        .iter()
        .filter(|(n, _)| list_element(n).1.is_none())
        .cloned()
        .collect();
    let mut indices: Vec<usize> = ts.iter().filter_map(|(n, _)| list_element(n).1).collect();
    indices.sort_unstable();
    indices.dedup();
    for i in indices {
        let mut group = plain.clone();
        group.extend(
            ts.iter()
                .filter(|(n, _)| list_element(n).1 == Some(i))
                .cloned(),
        );
        same_by(&group, "shape", key)?;
    }
    Ok(())
}

/// Each tensor's shape (or its last `list.len()` dims, when `trailing`) equals `list`.
pub fn shape_matches_list(
    ts: &[Named],
    list_name: &str,
    list: Option<&[i64]>,
    trailing: bool,
) -> Result<(), String> {
    let Some(list) = list else {
        return Ok(());
    };
    for (name, t) in ts {
        let tail = t
            .shape
            .len()
            .checked_sub(list.len())
            .map(|skip| &t.shape[skip..]);
        let ok = if trailing {
            tail == Some(list)
        } else {
            t.shape == list
        };
        if !ok {
            return Err(format!(
                "{name} shape {:?} does not match {list_name} {list:?}{}",
                t.shape,
                if trailing { " in its last dims" } else { "" }
            ));
        }
    }
    Ok(())
}

/// `base`'s shape padded by `list`: pairs from the last dim on (`list[2i]`, `list[2i+1]` add to
/// dim `-1-i`), as PyTorch's `pad` reads them. `None` for a list of odd length or longer than two
/// per dim of `base`.
pub fn padded_shape(base: &[i64], list: &[i64]) -> Option<Vec<i64>> {
    if !list.len().is_multiple_of(2) || list.len() / 2 > base.len() {
        return None;
    }
    let mut want = base.to_vec();
    for (i, pair) in list.chunks(2).enumerate() {
        want[base.len() - 1 - i] += pair[0] + pair[1];
    }
    Some(want)
}

/// `base`'s shape reduced over `dims` (negative from the end, a repeated dim reduced once), each
/// reduced dim kept as 1 when `keep`; an empty `dims` reduces every dim. `None` when a dim lies
/// outside `base` (a 0-d base takes 0 and -1, as PyTorch's reductions do).
pub fn reduced_shape(base: &[i64], dims: &[i64], keep: bool) -> Option<Vec<i64>> {
    let rank = base.len().max(1) as i64;
    let mut reduced = vec![dims.is_empty(); base.len().max(1)];
    for &d in dims {
        let at = if d < 0 { d + rank } else { d };
        *reduced.get_mut(usize::try_from(at).ok()?)? = true;
    }
    Some(
        base.iter()
            .zip(&reduced)
            .filter_map(|(&n, &r)| match (r, keep) {
                (false, _) => Some(n),
                (true, true) => Some(1),
                (true, false) => None,
            })
            .collect(),
    )
}

/// Each of `ts` has the shape `derive` gives of each `base` tensor's (`how` says how, in the
/// message); a base `derive` gives none for is another rule's concern.
fn each_shape_derived(
    ts: &[Named],
    base: &[Named],
    how: &str,
    derive: impl Fn(&[i64]) -> Option<Vec<i64>>,
) -> Result<(), String> {
    for (bn, b) in base {
        let Some(want) = derive(&b.shape) else {
            continue;
        };
        for (name, t) in ts {
            if t.shape != want {
                return Err(format!(
                    "{name} has shape {:?} but {bn} {:?} {how} gives {want:?}",
                    t.shape, b.shape
                ));
            }
        }
    }
    Ok(())
}

/// Each of `ts` has `base`'s shape reduced over `dims` (`reduced_shape`), kept as 1s when `keep`
/// is 1. A null or empty `dims`, a null `keep` or an empty base states nothing (CANN accepts a
/// 0-d result of an empty dims list with keepdim, and any result of an empty base); a dim out of
/// range is another rule's concern.
pub fn shape_reduced(
    ts: &[Named],
    base: &[Named],
    dims_name: &str,
    dims: Option<&[i64]>,
    keep: Option<&[i64]>,
) -> Result<(), String> {
    let (Some(dims), Some([keep])) = (dims.filter(|d| !d.is_empty()), keep) else {
        return Ok(());
    };
    let how = format!("reduced over {dims_name} {dims:?}");
    each_shape_derived(ts, base, &how, |shape| {
        (!shape.contains(&0))
            .then(|| reduced_shape(shape, dims, *keep != 0))
            .flatten()
    })
}

/// Each of `ts` has `base`'s shape padded by `list` (`padded_shape`). A null list or base, or a
/// list `padded_shape` cannot apply, is another rule's concern.
pub fn shape_padded(
    ts: &[Named],
    base: &[Named],
    list_name: &str,
    list: Option<&[i64]>,
) -> Result<(), String> {
    let Some(list) = list else {
        return Ok(());
    };
    let how = format!("padded by {list_name} {list:?}");
    each_shape_derived(ts, base, &how, |shape| padded_shape(shape, list))
}

/// Each of `ts` has `base`'s shape with its last `list.len()` dims replaced by `list`'s values.
/// A null list or base, or a base with fewer dims than the list, is another rule's concern.
pub fn shape_from_list(
    ts: &[Named],
    base: &[Named],
    list_name: &str,
    list: Option<&[i64]>,
) -> Result<(), String> {
    let Some(list) = list else {
        return Ok(());
    };
    let how = format!("with {list_name} {list:?}");
    each_shape_derived(ts, base, &how, |shape| {
        let kept = shape.len().checked_sub(list.len())?;
        Some(shape[..kept].iter().chain(list).copied().collect())
    })
}

/// Dim `ld` of every `lhs` tensor equals dim `rd` of every `rhs` tensor (negative = from the end).
pub fn dims_equal(lhs: &[Named], ld: i64, rhs: &[Named], rd: i64) -> Result<(), String> {
    let dim = |name: &str, t: &TensorDesc, d: i64| {
        let i = if d < 0 { t.rank() as i64 + d } else { d };
        usize::try_from(i)
            .ok()
            .and_then(|i| t.shape.get(i).copied())
            .ok_or_else(|| format!("{name} has no dim {d} (rank {})", t.rank()))
    };
    for (ln, l) in lhs {
        for (rn, r) in rhs {
            let (a, b) = (dim(ln, l, ld)?, dim(rn, r, rd)?);
            if a != b {
                return Err(format!("{ln} dim {ld} is {a} but {rn} dim {rd} is {b}"));
            }
        }
    }
    Ok(())
}

/// The size of dim `dim` (negative = from the end); `None` when the tensor lacks it.
fn dim_size(t: &TensorDesc, dim: i64) -> Option<i64> {
    let i = if dim < 0 { t.rank() as i64 + dim } else { dim };
    usize::try_from(i)
        .ok()
        .and_then(|i| t.shape.get(i).copied())
}

/// Dim `dim` (negative = from the end) of every tensor is a multiple of `by`; a tensor without
/// that dim passes (whether the dim exists is another rule's concern).
pub fn dim_multiple_of(ts: &[Named], dim: i64, by: i64) -> Result<(), String> {
    for (name, t) in ts {
        let Some(x) = dim_size(t, dim) else {
            continue;
        };
        if by != 0 && x % by != 0 {
            return Err(format!("{name} dim {dim} is {x}, not a multiple of {by}"));
        }
    }
    Ok(())
}

/// Dim `dim` (negative = from the end) of every tensor lies in `[min, max]`; a tensor without
/// that dim is skipped.
pub fn dim_in_range(
    ts: &[Named],
    dim: i64,
    min: Option<i64>,
    max: Option<i64>,
) -> Result<(), String> {
    for (name, t) in ts {
        let Some(x) = dim_size(t, dim) else {
            continue;
        };
        if min.is_some_and(|m| x < m) || max.is_some_and(|m| x > m) {
            return Err(format!(
                "{name} dim {dim} is {x}, outside {}",
                bounds_text(min, max)
            ));
        }
    }
    Ok(())
}

/// "[1, 256]", "≥ 1", "≤ 4096".
pub fn bounds_text(min: Option<i64>, max: Option<i64>) -> String {
    match (min, max) {
        (Some(lo), Some(hi)) => format!("[{lo}, {hi}]"),
        (Some(lo), None) => format!("≥ {lo}"),
        (None, Some(hi)) => format!("≤ {hi}"),
        (None, None) => "any size".to_string(),
    }
}

/// The channel axis of a tensor: the last for channels-last formats (NHWC, NDHWC, NLC), else the
/// second (NCHW, NCL, NCDHW, ND with the channel second).
pub fn channel_axis(t: &TensorDesc) -> usize {
    match t.format {
        Format::Nhwc | Format::Ndhwc | Format::Nlc => t.rank().saturating_sub(1),
        _ => 1,
    }
}

/// The channel axis of a tensor whose layout an attribute names ("NHWC", "NCHW", "NDHWC"):
/// the last dim for a channels-last name, else the second; a name of no layout gives `None`.
pub fn layout_channel_axis(t: &TensorDesc, layout: &str) -> Option<usize> {
    let name = layout.trim().to_ascii_uppercase();
    if !name.starts_with('N') || !name.contains('C') || name.len() < 2 {
        return None;
    }
    Some(if name.ends_with('C') {
        t.rank().saturating_sub(1)
    } else {
        1
    })
}

/// Dim `dim` (negative = from the end) of every `ts` tensor equals the channel axis of every `of`
/// tensor (by `layout` when a layout attribute names it, else by the tensor's format); a tensor
/// without the dim (or the channel axis) passes: ranks are other rules' concern.
pub fn dim_matches_channel(
    ts: &[Named],
    dim: i64,
    of: &[Named],
    layout: Option<&str>,
) -> Result<(), String> {
    for (on, o) in of {
        let axis = layout
            .and_then(|l| layout_channel_axis(o, l))
            .unwrap_or_else(|| channel_axis(o));
        let Some(c) = o.shape.get(axis).copied() else {
            continue;
        };
        for (name, t) in ts {
            let i = if dim < 0 { t.rank() as i64 + dim } else { dim };
            let Some(x) = usize::try_from(i)
                .ok()
                .and_then(|i| t.shape.get(i).copied())
            else {
                continue;
            };
            if x != c {
                let layout = layout.map_or_else(|| o.format.to_string(), str::to_string);
                return Err(format!(
                    "{name} dim {dim} is {x} but {on}'s channel axis (dim {axis}, {layout}) is {c}"
                ));
            }
        }
    }
    Ok(())
}

/// Dim `dim` (negative = from the end of each tensor) of every `lhs` tensor times `den` equals the
/// same dim of every `rhs` tensor times `num`; a tensor without the dim passes (ranks are other
/// rules' concern).
pub fn dims_scaled(
    lhs: &[Named],
    rhs: &[Named],
    dim: i64,
    num: i64,
    den: i64,
) -> Result<(), String> {
    let at = |t: &TensorDesc| {
        let i = if dim < 0 { t.rank() as i64 + dim } else { dim };
        usize::try_from(i)
            .ok()
            .and_then(|i| t.shape.get(i).copied())
    };
    for (ln, l) in lhs {
        for (rn, r) in rhs {
            let (Some(a), Some(b)) = (at(l), at(r)) else {
                continue;
            };
            if a.checked_mul(den) != b.checked_mul(num) {
                return Err(format!(
                    "{ln} dim {dim} is {a} but {rn} dim {dim} is {b} (expected {num}/{den} of it)"
                ));
            }
        }
    }
    Ok(())
}

/// Every `lhs` tensor has the rank of every `rhs` tensor and the same dims except `dim` (negative
/// = from the end).
pub fn shape_same_except(lhs: &[Named], rhs: &[Named], dim: i64) -> Result<(), String> {
    for (ln, l) in lhs {
        for (rn, r) in rhs {
            if l.rank() != r.rank() {
                return Err(format!(
                    "{ln} has rank {} but {rn} has rank {}",
                    l.rank(),
                    r.rank()
                ));
            }
            let skip = if dim < 0 { l.rank() as i64 + dim } else { dim };
            let differs = (0..l.rank()).find(|&i| i as i64 != skip && l.shape[i] != r.shape[i]);
            if let Some(i) = differs {
                return Err(format!(
                    "{ln} shape {:?} differs from {rn} shape {:?} at dim {i}, not only at dim {dim}",
                    l.shape, r.shape
                ));
            }
        }
    }
    Ok(())
}

/// Every dim of each `lhs` tensor is at most the same dim of each `rhs` tensor of its rank, but
/// dim `except` (negative = from the end).
pub fn dims_at_most(lhs: &[Named], rhs: &[Named], except: Option<i64>) -> Result<(), String> {
    for (ln, l) in lhs {
        for (rn, r) in rhs.iter().filter(|(_, r)| r.rank() == l.rank()) {
            let skip = except.map(|d| if d < 0 { l.rank() as i64 + d } else { d });
            let over = (0..l.rank()).find(|&i| Some(i as i64) != skip && l.shape[i] > r.shape[i]);
            if let Some(i) = over {
                return Err(format!(
                    "{ln} dim {i} is {} but {rn} dim {i} is {}",
                    l.shape[i], r.shape[i]
                ));
            }
        }
    }
    Ok(())
}

/// Each `from` tensor broadcasts one-way to each `to` tensor: same rank, every dim equal or 1 in
/// `from`; when `dims` is given (negative = from the end), only those dims may differ.
pub fn broadcastable(from: &[Named], to: &[Named], dims: Option<&[i64]>) -> Result<(), String> {
    for (fname, f) in from {
        for (tname, t) in to {
            broadcast_one(fname, f, tname, t, dims)?;
        }
    }
    Ok(())
}

/// The tensors broadcast together: aligned from the end, every dim is 1 or the common size.
pub fn broadcast_together(ts: &[Named]) -> Result<(), String> {
    let rank = ts.iter().map(|(_, t)| t.rank()).max().unwrap_or(0);
    for i in 0..rank {
        let mut size: Option<(i64, &str)> = None;
        for (name, t) in ts {
            let Some(&d) = (i + t.rank())
                .checked_sub(rank)
                .and_then(|j| t.shape.get(j))
            else {
                continue;
            };
            if d == 1 {
                continue;
            }
            match size {
                None => size = Some((d, name)),
                Some((s, other)) if s != d => {
                    return Err(format!(
                        "{name} and {other} do not broadcast: {d} vs {s} at dim {i} from the left of the broadcast shape"
                    ))
                }
                _ => {}
            }
        }
    }
    Ok(())
}

/// Each `out` tensor has the shape the `ts` broadcast to.
pub fn broadcast_shape(ts: &[Named], out: &[Named]) -> Result<(), String> {
    broadcast_together(ts)?;
    let rank = ts.iter().map(|(_, t)| t.rank()).max().unwrap_or(0);
    let shape: Vec<i64> = (0..rank)
        .map(|i| {
            ts.iter()
                .filter_map(|(_, t)| (i + t.rank()).checked_sub(rank).map(|j| t.shape[j]))
                .find(|&d| d != 1)
                .unwrap_or(1)
        })
        .collect();
    for (name, o) in out {
        if o.shape != shape {
            let inputs: Vec<&str> = ts.iter().map(|(n, _)| n.as_str()).collect();
            return Err(format!(
                "{name} has shape {:?} but {} broadcast to {shape:?}",
                o.shape,
                inputs.join(", ")
            ));
        }
    }
    Ok(())
}

/// Lists (named with their lengths) of one length.
pub fn list_len_same(lens: &[(&str, usize)]) -> Result<(), String> {
    let Some((first, want)) = lens.first() else {
        return Ok(());
    };
    match lens.iter().find(|(_, l)| l != want) {
        None => Ok(()),
        Some((name, l)) => Err(format!("{name} has length {l} but {first} has {want}")),
    }
}

fn broadcast_one(
    fname: &str,
    f: &TensorDesc,
    tname: &str,
    t: &TensorDesc,
    dims: Option<&[i64]>,
) -> Result<(), String> {
    let fail = |why: String| {
        Err(format!(
            "{fname} shape {:?} does not broadcast to {tname} shape {:?}: {why}",
            f.shape, t.shape
        ))
    };
    // Without named dims, numpy rules: `from` may have fewer dims, aligned from the end. Named
    // dims ("仅支持HW维度") are positions of one shared rank.
    let lead = match dims {
        None if f.rank() <= t.rank() => t.rank() - f.rank(),
        _ if f.rank() != t.rank() => return fail(format!("{} dims vs {}", f.rank(), t.rank())),
        _ => 0,
    };
    let rank = t.rank() as i64;
    for (i, (&a, &b)) in f.shape.iter().zip(&t.shape[lead..]).enumerate() {
        if a == b {
            continue;
        }
        let i = (i + lead) as i64;
        let may_differ = match dims {
            None => true,
            Some(ds) => ds.iter().any(|&d| d == i || d + rank == i),
        };
        if !may_differ {
            return fail(format!("dim {i} must be equal ({a} vs {b})"));
        }
        if a != 1 {
            return fail(format!("dim {i} is {a}, neither 1 nor {b}"));
        }
    }
    Ok(())
}

pub fn dims_positive(ts: &[Named], allow_zero: bool) -> Result<(), String> {
    let bad = |d: i64| if allow_zero { d < 0 } else { d <= 0 };
    for (name, t) in ts {
        if let Some((i, d)) = t.shape.iter().enumerate().find(|(_, d)| bad(**d)) {
            return Err(format!(
                "{name} dim {i} is {d} (must be {})",
                if allow_zero { ">= 0" } else { "> 0" }
            ));
        }
    }
    Ok(())
}

pub fn not_empty(ts: &[Named]) -> Result<(), String> {
    match ts.iter().find(|(_, t)| t.is_empty()) {
        None => Ok(()),
        Some((name, t)) => Err(format!("{name} is an empty tensor (shape {:?})", t.shape)),
    }
}

pub fn numel_in(ts: &[Named], values: &[i64]) -> Result<(), String> {
    for (name, t) in ts {
        let n = t.numel();
        if !n.is_some_and(|n| values.contains(&n)) {
            return Err(format!(
                "{name} has {} elements (supported: {})",
                n.map_or("too many".to_string(), |n| n.to_string()),
                join(values)
            ));
        }
    }
    Ok(())
}

pub fn contiguous(ts: &[Named]) -> Result<(), String> {
    match ts.iter().find(|(_, t)| !t.is_contiguous()) {
        None => Ok(()),
        Some((name, t)) => Err(format!(
            "{name} is not contiguous (strides {:?})",
            t.strides.as_deref().unwrap_or_default()
        )),
    }
}
