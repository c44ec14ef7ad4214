//! Conditions on named layout axes: "out在N、C维度上的size大小与self未完全相同", "self在C、D、H、W
//! 维度上的size大小不大于0", "self的shape在C、H、W的某个轴为0", "input的channel轴size为0".
//!
//! Each named axis becomes a dim index when the condition is read, from the layout the tensor's
//! documented formats give, and the rules are the existing dim rules: `DimsEqual` for equal sizes,
//! `DimInRange` (min 1) for a size that must be positive. Positions count from the end:
//! channels-first (NCHW, NCDHW, NCL, and plain formats such as ND) puts W, H, D last and C, N
//! before them; channels-last (NHWC, NDHWC, NLC) puts C last. The spatial count comes from the
//! op's formats, else from the axes the condition names (D: 3, H or W: 2, L: 1), else from a rank
//! range `[s+1, s+2]` the tensors share (an optional leading axis before `s` spatial ones).
//!
//! A tensor of rank `s+1` lacks one of N and C, and docs differ on which ("(C, H, W)", "N、D、H、W"):
//! N and C are placed at full rank `s+2` only, under a `WhenTensor` rank condition where the tensor
//! may have another rank. A condition that already holds only at another rank names an axis at no
//! position the doc fixes, and stays manual; so do mixed, private or undecidable layouts.

use super::relations::{layout_attr, pinned_channel};
use super::states::States;
use crate::ir::ManualKind;
use crate::ir::{OpIr, Param};
use crate::rules::text::{self, re};
use crate::rules::Manual;
use aclnn_runtime::{Format, Rule, TensorState};

macro_rules! axis_list {
    () => {
        r"[NCDHWL](?:\s*(?:、|,|，|或者|或|和|与|及)?\s*[NCDHWL])*"
    };
}
macro_rules! name {
    () => {
        r"[A-Za-z_][A-Za-z0-9_]*"
    };
}

// "out在N、C维度上的size大小与self未完全相同", "self与gradOutput在N、C维度上的size不一致",
// "self和out的NC维度不一致".
re!(
    AXES_EQUAL,
    concat!(
        r"^(?:或者|或)?\s*(",
        name!(),
        r")\s*(?:(?:与|和|跟|、)\s*(",
        name!(),
        r")\s*)?(?:的\s*shape\s*)?(?:在|的)\s*(",
        axis_list!(),
        r")\s*(?:维度|维|轴)\s*上?\s*的?\s*(?:size|大小|长度)?\s*(?:大小)?\s*(?:(?:与|和|跟)\s*(",
        name!(),
        r")\s*的?\s*)?(?:不一致|不相同|不同|不相等|未完全相同|不完全相同)$"
    )
);
// "self在C、D、H、W维度上的size大小不大于0", "self的shape在C、H、W的某个轴为0", "self在除N维度外
// 各维度的size大小不大于0".
re!(
    AXES_POSITIVE,
    concat!(
        r"^(?:或者|或)?\s*(",
        name!(),
        r")\s*(?:的\s*shape\s*)?(?:在|的)\s*(?:除\s*(",
        axis_list!(),
        r")\s*(?:维度|维|轴)\s*(?:外|以外)\s*的?\s*(?:各|其他|其余|所有)\s*(?:维度|维|轴)|(",
        axis_list!(),
        r")\s*(?:维度|维|轴)|(",
        axis_list!(),
        r")\s*的\s*(?:某个|某一|任一|任意)\s*(?:轴|维度|维))\s*上?\s*的?\s*(?:size|大小)?\s*(?:大小)?\s*(?:不大于\s*0|小于等于\s*0|<=\s*0|等于\s*0|为\s*0)$"
    )
);
// "input的channel轴size为0", "input的channel轴的size为0".
re!(
    CHANNEL_ZERO,
    concat!(
        r"^(?:或者|或)?\s*(",
        name!(),
        r")\s*的\s*(?:shape\s*(?:中|的)?\s*)?(?:channel轴|C轴|通道轴|通道数)\s*的?\s*(?:size|大小|长度)?\s*(?:不大于\s*0|小于等于\s*0|等于\s*0|为\s*0)$"
    )
);

/// How a tensor lays out its axes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Layout {
    /// N, C, then the spatial axes (NCHW, NCDHW, NCL, plain formats).
    ChannelsFirst,
    /// N, the spatial axes, then C (NHWC, NDHWC, NLC).
    ChannelsLast,
}

/// Where an axis sits: `dim` (negative = from the end), and the one rank at which alone it sits
/// there (`None`: at every rank the layout allows).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Place {
    pub dim: i64,
    pub at_rank: Option<usize>,
}

/// The place of `axis` in a layout with `spatial` spatial axes; `None` for an axis it lacks.
pub(super) fn position(layout: Layout, spatial: usize, axis: char) -> Option<Place> {
    let s = spatial as i64;
    let at_full = |dim| Place {
        dim,
        at_rank: Some(spatial + 2),
    };
    let spatial_from_end = match axis {
        'N' => return Some(at_full(-(s + 2))),
        'C' if layout == Layout::ChannelsLast => return Some(at_full(-1)),
        'C' => return Some(at_full(-(s + 1))),
        'W' if spatial >= 2 => 1,
        'L' if spatial == 1 => 1,
        'H' if spatial >= 2 => 2,
        'D' if spatial == 3 => 3,
        _ => return None,
    };
    // A channels-last layout has C after the spatial axes.
    let offset = i64::from(layout == Layout::ChannelsLast);
    Some(Place {
        dim: -(spatial_from_end + offset),
        at_rank: None,
    })
}

/// Rules for a clause on named axes; `None` when the clause is none, `Some(Err)` when it is one
/// whose positions the doc does not fix.
pub(super) fn named_axes_rules(op: &OpIr, clause: &str) -> Option<Result<Vec<Rule>, Manual>> {
    let clause = clause.trim();
    if let Some(c) = CHANNEL_ZERO.captures(clause) {
        let p = tensor(op, &c[1])?;
        return Some(channel_rule(p).map(|r| vec![r]));
    }
    if let Some(c) = AXES_POSITIVE.captures(clause) {
        let p = tensor(op, &c[1])?;
        let (axes, except) = match (c.get(2), c.get(3).or(c.get(4))) {
            (Some(except), _) => (letters(except.as_str()), true),
            (None, Some(list)) => (letters(list.as_str()), false),
            (None, None) => return None,
        };
        return Some(positive_rules(op, p, &axes, except));
    }
    let c = AXES_EQUAL.captures(clause)?;
    let lhs = tensor(op, &c[1])?;
    let rhs = match (c.get(2), c.get(4)) {
        (Some(r), None) | (None, Some(r)) => tensor(op, r.as_str())?,
        _ => return None,
    };
    Some(equal_rules(op, lhs, rhs, &letters(&c[3])))
}

fn tensor<'a>(op: &'a OpIr, word: &str) -> Option<&'a Param> {
    text::resolve(op, word.trim()).filter(|p| p.role.is_tensor())
}

/// "N、C" → ['N', 'C']; "NC" → ['N', 'C'].
fn letters(list: &str) -> Vec<char> {
    let mut out: Vec<char> = Vec::new();
    for ch in list.chars().filter(|c| "NCDHWL".contains(*c)) {
        if !out.contains(&ch) {
            out.push(ch);
        }
    }
    out
}

/// "channel轴size为0": the channel axis the table pins ("默认第二维为channel轴"), else CANN's
/// convention: the second dim of a channels-first or plain tensor, the last of a channels-last one.
fn channel_rule(p: &Param) -> Result<Rule, Manual> {
    let dim = match pinned_channel(p) {
        Some(dim) => dim,
        None => match layout(p)? {
            Layout::ChannelsFirst => 1,
            Layout::ChannelsLast => -1,
        },
    };
    Ok(Rule::DimInRange {
        param: p.name.clone(),
        dim,
        min: Some(1),
        max: None,
    })
}

/// The layout of a tensor's documented formats.
fn layout(p: &Param) -> Result<Layout, Manual> {
    let last = |f: &Format| matches!(f, Format::Nhwc | Format::Ndhwc | Format::Nlc);
    if p.formats.is_empty() {
        return Err(Manual::new(
            ManualKind::Unstated,
            format!("{} documents no format to place its axes by", p.name),
        ));
    }
    if let Some(f) = p
        .formats
        .iter()
        .find(|f| f.is_private() || **f == Format::Hwcn)
    {
        return Err(Manual::new(
            ManualKind::Unstated,
            format!(
                "{} may be {f}, whose axes are not counted from the end",
                p.name
            ),
        ));
    }
    match (p.formats.iter().all(last), p.formats.iter().any(last)) {
        (true, _) => Ok(Layout::ChannelsLast),
        (false, false) => Ok(Layout::ChannelsFirst),
        _ => Err(Manual::new(
            ManualKind::Unstated,
            format!(
                "{} may be channels-first or channels-last, so its named axes have no one position",
                p.name
            ),
        )),
    }
}

/// The op's spatial axis count: from its tensors' formats, else the axes the condition names,
/// else the rank range `[s+1, s+2]` its `tensors` share.
fn spatial_count(op: &OpIr, axes: &[char], tensors: &[&Param]) -> Result<usize, Manual> {
    let mut counts: Vec<usize> = op
        .params
        .iter()
        .flat_map(|p| &p.formats)
        .filter_map(|f| match f {
            Format::Ncdhw | Format::Ndhwc => Some(3),
            Format::Nchw | Format::Nhwc => Some(2),
            Format::Ncl | Format::Nlc => Some(1),
            _ => None,
        })
        .collect();
    counts.sort_unstable();
    counts.dedup();
    let named = if axes.contains(&'D') {
        Some(3)
    } else if axes.contains(&'L') {
        Some(1)
    } else {
        None
    };
    let needs_hw = axes.contains(&'H') || axes.contains(&'W');
    let count = match counts.as_slice() {
        [one] => *one,
        [] => match named {
            Some(n) => n,
            None => shared_rank_count(tensors).ok_or_else(|| {
                Manual::new(
                    ManualKind::Unstated,
                    "neither the formats nor the ranks give the op's spatial axes",
                )
            })?,
        },
        _ => {
            return Err(Manual::new(
                ManualKind::Unstated,
                "the op's formats give it layouts of several spatial ranks",
            ))
        }
    };
    if named.is_some_and(|n| n != count) || (needs_hw && count < 2) {
        return Err(Manual::new(
            ManualKind::Unstated,
            format!("the axes named do not fit the op's layout of {count} spatial axes"),
        ));
    }
    Ok(count)
}

/// `s` where every tensor's documented rank range is `[s+1, s+2]`.
fn shared_rank_count(tensors: &[&Param]) -> Option<usize> {
    let ranks: Vec<_> = tensors.iter().map(|p| p.rank).collect::<Option<_>>()?;
    let first = ranks.first()?;
    let same = ranks.iter().all(|r| r == first);
    (same && first.max == first.min + 1 && first.min >= 2).then(|| first.min - 1)
}

/// The place of `axis` in `p`, checked against its documented ranks.
fn place(p: &Param, layout: Layout, spatial: usize, axis: char) -> Result<Place, Manual> {
    let rank = p.rank.ok_or_else(|| {
        Manual::new(
            ManualKind::Unstated,
            format!("{} documents no rank to place its axes by", p.name),
        )
    })?;
    if rank.min < spatial + 1 || rank.max > spatial + 2 {
        return Err(Manual::new(
            ManualKind::Unstated,
            format!(
                "{}'s ranks {}-{} do not fit a layout of {spatial} spatial axes",
                p.name, rank.min, rank.max
            ),
        ));
    }
    let place = position(layout, spatial, axis).ok_or_else(|| {
        Manual::new(
            ManualKind::Unstated,
            format!("a layout of {spatial} spatial axes has no {axis} axis"),
        )
    })?;
    match place.at_rank {
        Some(r) if rank.max < r => Err(Manual::new(
            ManualKind::Unstated,
            format!("{} never has the {axis} axis", p.name),
        )),
        // Every rank the tensor may have is the one the axis needs: no condition.
        Some(r) if rank.min == r => Ok(Place {
            at_rank: None,
            ..place
        }),
        _ => Ok(place),
    }
}

/// `rule` while `p` has the rank the place needs.
fn at_rank(p: &Param, place: Place, rule: Rule) -> Rule {
    match place.at_rank {
        None => rule,
        Some(r) => Rule::WhenTensor {
            param: p.name.clone(),
            state: TensorState::Rank {
                ranks: vec![r],
                negate: false,
            },
            rule: Box::new(rule),
        },
    }
}

fn positive_rules(op: &OpIr, p: &Param, axes: &[char], except: bool) -> Result<Vec<Rule>, Manual> {
    refuse_layout_attr(op)?;
    let layout = layout(p)?;
    let spatial = spatial_count(op, axes, &[p])?;
    let axes: Vec<char> = if except {
        let all = ['N', 'C', 'D', 'H', 'W'];
        let all: Vec<char> = all[..2 + spatial.min(3)].to_vec();
        all.into_iter().filter(|a| !axes.contains(a)).collect()
    } else {
        axes.to_vec()
    };
    axes.iter()
        .map(|&axis| {
            let place = place(p, layout, spatial, axis)?;
            let rule = Rule::DimInRange {
                param: p.name.clone(),
                dim: place.dim,
                min: Some(1),
                max: None,
            };
            Ok(at_rank(p, place, rule))
        })
        .collect()
}

fn equal_rules(op: &OpIr, lhs: &Param, rhs: &Param, axes: &[char]) -> Result<Vec<Rule>, Manual> {
    refuse_layout_attr(op)?;
    let (ll, rl) = (layout(lhs)?, layout(rhs)?);
    let spatial = spatial_count(op, axes, &[lhs, rhs])?;
    axes.iter()
        .map(|&axis| {
            let (lp, rp) = (
                place(lhs, ll, spatial, axis)?,
                place(rhs, rl, spatial, axis)?,
            );
            let rule = Rule::DimsEqual {
                lhs: lhs.name.clone(),
                lhs_dim: lp.dim,
                rhs: rhs.name.clone(),
                rhs_dim: rp.dim,
            };
            Ok(at_rank(lhs, lp, at_rank(rhs, rp, rule)))
        })
        .collect()
}

fn refuse_layout_attr(op: &OpIr) -> Result<(), Manual> {
    match layout_attr(op) {
        Some(a) => Err(Manual::new(
            ManualKind::Unstated,
            format!("the layout of the named axes is the argument {a}'s, not the formats'"),
        )),
        None => Ok(()),
    }
}

/// `rule` under the tensor states of a condition's prefix ("当self为4维时，"): a rank condition of
/// the rule's own that the prefix implies goes; one the prefix excludes means the condition names
/// an axis at a rank where the doc fixes no position for it.
pub(super) fn under_states(states: &States, rule: Rule) -> Result<Rule, Manual> {
    let mut rule = rule;
    for (param, state) in states {
        if let TensorState::Rank {
            ranks,
            negate: false,
        } = state
        {
            rule = implied(rule, param, ranks)?;
        }
    }
    Ok(super::states::wrap(states, rule))
}

fn implied(rule: Rule, param: &str, ranks: &[usize]) -> Result<Rule, Manual> {
    let Rule::WhenTensor {
        param: p,
        state,
        rule: inner,
    } = rule
    else {
        return Ok(rule);
    };
    let inner = implied(*inner, param, ranks)?;
    if let TensorState::Rank {
        ranks: needed,
        negate: false,
    } = &state
    {
        if p == param && ranks.iter().all(|r| needed.contains(r)) {
            return Ok(inner);
        }
        if p == param && !ranks.iter().any(|r| needed.contains(r)) {
            return Err(Manual::new(ManualKind::Unstated, format!(
                "names an axis of {p} at rank {}, where its documented layout fixes no position for it",
                ranks
                    .iter()
                    .map(usize::to_string)
                    .collect::<Vec<_>>()
                    .join("/")
            )));
        }
    }
    Ok(Rule::WhenTensor {
        param: p,
        state,
        rule: Box::new(inner),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(dim: i64, at_rank: Option<usize>) -> Option<Place> {
        Some(Place { dim, at_rank })
    }

    #[test]
    fn channels_first_counts_spatial_axes_from_the_end() {
        let f = Layout::ChannelsFirst;
        assert_eq!(position(f, 2, 'W'), at(-1, None));
        assert_eq!(position(f, 2, 'H'), at(-2, None));
        assert_eq!(position(f, 2, 'D'), None);
        assert_eq!(position(f, 2, 'C'), at(-3, Some(4)));
        assert_eq!(position(f, 2, 'N'), at(-4, Some(4)));
        assert_eq!(position(f, 3, 'D'), at(-3, None));
        assert_eq!(position(f, 3, 'C'), at(-4, Some(5)));
        assert_eq!(position(f, 3, 'N'), at(-5, Some(5)));
        assert_eq!(position(f, 1, 'L'), at(-1, None));
        assert_eq!(position(f, 1, 'C'), at(-2, Some(3)));
        assert_eq!(position(f, 1, 'H'), None);
    }

    #[test]
    fn channels_last_puts_the_channel_last() {
        let l = Layout::ChannelsLast;
        assert_eq!(position(l, 2, 'C'), at(-1, Some(4)));
        assert_eq!(position(l, 2, 'W'), at(-2, None));
        assert_eq!(position(l, 2, 'H'), at(-3, None));
        assert_eq!(position(l, 2, 'N'), at(-4, Some(4)));
        assert_eq!(position(l, 3, 'D'), at(-4, None));
        assert_eq!(position(l, 3, 'N'), at(-5, Some(5)));
        assert_eq!(position(l, 1, 'L'), at(-2, None));
    }

    #[test]
    fn a_rank_prefix_drops_the_rank_condition_it_implies_and_refuses_one_it_excludes() {
        let rank = |r: usize| TensorState::Rank {
            ranks: vec![r],
            negate: false,
        };
        let dims = Rule::DimsEqual {
            lhs: "a".into(),
            lhs_dim: -4,
            rhs: "b".into(),
            rhs_dim: -4,
        };
        let guarded = Rule::WhenTensor {
            param: "a".into(),
            state: rank(4),
            rule: Box::new(dims.clone()),
        };
        let prefix: States = vec![("a".into(), rank(4))];
        assert_eq!(under_states(&prefix, guarded.clone()).unwrap(), guarded);
        let prefix: States = vec![("a".into(), rank(3))];
        assert!(under_states(&prefix, guarded.clone()).is_err());
        // Another tensor's prefix leaves the condition as it is, inside its own.
        let prefix: States = vec![("b".into(), rank(4))];
        let Rule::WhenTensor { param, rule, .. } = under_states(&prefix, guarded.clone()).unwrap()
        else {
            panic!("not wrapped");
        };
        assert_eq!((param.as_str(), *rule), ("b", guarded));
    }

    #[test]
    fn axis_lists_are_letters_once_each() {
        assert_eq!(letters("N、C"), vec!['N', 'C']);
        assert_eq!(letters("NC"), vec!['N', 'C']);
        assert_eq!(letters("C或N"), vec!['C', 'N']);
        assert_eq!(letters("C、D、H、W"), vec!['C', 'D', 'H', 'W']);
    }
}
