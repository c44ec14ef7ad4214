//! The cycle model's report: modeled cycles against the roofline, each pipe's busy share, and the
//! Chrome trace of the per-pipe timelines.
//!
//! The model (`sim/model/src/model.cpp`, "the cycle model") times every instruction on its pipe
//! from the public figures of `../shared/cann-data/README.md`; this module turns the driver's
//! `cycle_model` figures into the profile.
//!
//! Roofline (issue 51): the larger of the op's GM bytes (the bytes of the tensors the kernel
//! touched: the least it must read and write) ÷ (cores × the SoC's per-core `ddr_rate`) and its
//! vector bytes (each output element computed once in fp32: 4 bytes) ÷ (cores × 256 bytes per
//! cycle, the vector unit's width). `cores` is the launch's block dim.

use super::SimError;
use aclnn_runtime::soc::Soc;
use serde_json::{json, Value};
use std::path::Path;

/// Vector bytes per cycle of one core (one 256-byte repeat per cycle; public figures).
const VECTOR_BYTES_PER_CYCLE: u64 = 256;

/// The roofline of a run: cycles no kernel can beat on `cores` cores.
pub fn roofline_cycles(gm_bytes: u64, output_elements: u64, cores: u64, soc: &Soc) -> u64 {
    let cores = cores.max(1);
    let gm = gm_bytes.div_ceil(cores * u64::from(soc.ddr_rate.max(1)));
    let vector = (output_elements * 4).div_ceil(cores * VECTOR_BYTES_PER_CYCLE);
    gm.max(vector)
}

/// The profile of a run's summary (its `cycle_model`): modeled cycles (the slowest core, bounded
/// below by GM bandwidth over every core), microseconds at the SoC clock, pipes' busy shares.
pub fn profile(summary: &Value, soc: &Soc, output_elements: u64) -> Value {
    let model = &summary["cycle_model"];
    let cores = summary["block_dim"].as_u64().unwrap_or(1);
    let gm_needed = model["gm_bytes_needed"].as_u64().unwrap_or(0);
    let gm_moved = model["gm_read"].as_u64().unwrap_or(0) + model["gm_write"].as_u64().unwrap_or(0);
    let slowest = model["modeled_cycles"].as_u64().unwrap_or(0);
    // The cores share no more GM bandwidth than cores × ddr_rate.
    let bandwidth_bound = gm_moved.div_ceil(cores.max(1) * u64::from(soc.ddr_rate.max(1)));
    let modeled = slowest.max(bandwidth_bound);
    let roofline = roofline_cycles(gm_needed, output_elements, cores, soc);
    let mut pipes = serde_json::Map::new();
    if let Some(busy) = model["busy"].as_object() {
        for (name, cycles) in busy {
            let share = cycles.as_u64().unwrap_or(0) as f64 / modeled.max(1) as f64;
            pipes.insert(name.clone(), json!((share * 1000.0).round() / 1000.0));
        }
    }
    let us = modeled as f64 / f64::from(soc.clock_mhz.max(1));
    json!({
        "modeled_cycles": modeled,
        "roofline_cycles": roofline,
        "us": (us * 1000.0).round() / 1000.0,
        "pipes": pipes,
        "cores": cores,
        "soc": soc.name,
        "gm_bytes_needed": gm_needed,
        "gm_bytes_moved": gm_moved,
    })
}

/// The profile for people: one line each.
pub fn profile_text(p: &Value) -> String {
    let mut out = format!(
        "modeled cycles: {} ({} us at the {} clock, {} cores)\nroofline cycles: {} (modeled / roofline = {:.2})\n",
        p["modeled_cycles"],
        p["us"],
        p["soc"].as_str().unwrap_or("?"),
        p["cores"],
        p["roofline_cycles"],
        p["modeled_cycles"].as_f64().unwrap_or(0.0) / p["roofline_cycles"].as_f64().unwrap_or(1.0).max(1.0),
    );
    if let Some(pipes) = p["pipes"].as_object() {
        for (name, share) in pipes {
            out.push_str(&format!(
                "pipe {name:<4} busy {:>5.1}%\n",
                share.as_f64().unwrap_or(0.0) * 100.0
            ));
        }
    }
    out
}

/// One instruction of a core's raw trace: pipe, start cycle, cycles, name.
fn trace_events(raw: &str, core: u64, out: &mut Vec<Value>) {
    const PIPES: [&str; 11] = [
        "S", "V", "M", "MTE1", "MTE2", "MTE3", "ALL", "MTE4", "MTE5", "V2", "FIX",
    ];
    for line in raw.lines() {
        let mut parts = line.splitn(4, ' ');
        let (Some(pipe), Some(start), Some(dur), Some(name)) =
            (parts.next(), parts.next(), parts.next(), parts.next())
        else {
            continue;
        };
        let (Ok(pipe), Ok(start), Ok(dur)) = (
            pipe.parse::<usize>(),
            start.parse::<u64>(),
            dur.parse::<u64>(),
        ) else {
            continue;
        };
        out.push(
            json!({"name": name, "ph": "X", "pid": core, "tid": PIPES.get(pipe).unwrap_or(&"?"),
            "ts": start, "dur": dur}),
        );
    }
}

/// Merges the cores' raw traces (`<raw>.<core>`) into one Chrome trace (`chrome://tracing`,
/// Perfetto): a process per core, a row per pipe, one cycle per microsecond of the trace's clock.
pub fn write_chrome_trace(raw: &Path, cores: u64, out: &Path) -> Result<(), SimError> {
    let mut events = Vec::new();
    for core in 0..cores {
        let path = raw.with_extension(core.to_string());
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        trace_events(&text, core, &mut events);
    }
    let doc = json!({"traceEvents": events, "displayTimeUnit": "ns",
        "otherData": {"clock": "1 unit = 1 modeled cycle"}});
    std::fs::write(out, doc.to_string())
        .map_err(|e| SimError::Setup(format!("{}: {e}", out.display())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roofline_is_the_larger_of_gm_and_vector_bounds() {
        let soc = aclnn_runtime::soc::soc("Ascend910B2").expect("soc");
        let rate = u64::from(soc.ddr_rate);
        // GM-bound: 48 cores move 48 * rate * 100 bytes in 100 cycles.
        assert_eq!(roofline_cycles(48 * rate * 100, 0, 48, soc), 100);
        // Vector-bound: 48 * 64 * 10 fp32 outputs are 10 cycles of 256 bytes per core.
        assert_eq!(roofline_cycles(0, 48 * 64 * 10, 48, soc), 10);
    }

    #[test]
    fn trace_lines_become_one_row_per_pipe() {
        let mut events = Vec::new();
        trace_events(
            "4 0 362 copy_gm_to_ubuf\n1 362 25 vadd\nbad line\n",
            3,
            &mut events,
        );
        assert_eq!(events.len(), 2);
        assert_eq!(events[0]["tid"], "MTE2");
        assert_eq!(events[1]["tid"], "V");
        assert_eq!(events[1]["ts"], 362);
        assert_eq!(events[1]["pid"], 3);
    }
}
