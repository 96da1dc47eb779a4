//! The "needs N GPUs" searches of a misfit matrix cell: the smallest layout beyond the build
//! that fits (tensor degrees, then pipeline depths for inference; ZeRO-3 powers of two for
//! training), found by a galloping search over values that fit once they start to.

use super::{MAX_SEARCH_GPUS, tp_options, try_fit};
use crate::core::analysis::memory::{ModelSpec, Workload};
use crate::core::catalog::Gpu;

/// Smallest value in `lo..=hi` for which `fits` holds, assuming it holds for every larger value
/// once it holds for one (per-GPU memory falls as the layout spreads over more GPUs).
///
/// A galloping search (Bentley and Yao 1976, "An almost optimal algorithm for unbounded
/// searching"): it tries `lo`, `lo + 1`, `lo + 3`, `lo + 7`, … (then `hi`) until one fits,
/// and bisects the last step. An answer `k` past `lo` costs about 2·log2(k) evaluations, so a
/// near answer (the common one: a few more GPUs) costs what a walk through every value costs,
/// and a far one, or none, about log2(hi − lo) instead of one per value.
fn smallest_fitting(lo: u32, hi: u32, mut fits: impl FnMut(u32) -> bool) -> Option<u32> {
    if lo > hi {
        return None;
    }
    // `below` is known not to fit (or is below the range); `probe` is the next one tried.
    let (mut below, mut step) = (None::<u32>, 1u32);
    let mut probe = lo;
    let found = loop {
        if fits(probe) {
            break probe;
        }
        if probe == hi {
            return None;
        }
        below = Some(probe);
        probe = probe.saturating_add(step).min(hi);
        step = step.saturating_mul(2);
    };
    // Bisect (below, found]: the answer is the first value that fits in it.
    let (mut lo, mut hi) = (below.map_or(found, |b| b + 1), found);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if fits(mid) {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    Some(lo)
}

/// Whether `w` with tensor degree `tp` and `pp` pipeline stages fits on `tp × pp` GPUs.
fn fits_split(spec: &ModelSpec, w: &Workload, gpu: &Gpu, tp: u32, pp: u32) -> bool {
    let mut c = *w;
    c.tp = tp;
    c.pp = pp;
    try_fit(spec, &c, tp * pp, gpu).is_some_and(|t| t.verdict.fits())
}

/// GPUs an inference workload needs beyond the build: tensor parallel up to 8, then
/// pipeline stages of 8-way groups. The first layout in that order that fits: the tensor
/// degrees one by one, then the smallest pipeline depth by a galloping search (weights and KV cache
/// per GPU fall with every stage added, so the depths that fit are a tail of the range).
pub(super) fn inference_needs(spec: &ModelSpec, w: &Workload, gpu: &Gpu) -> Option<(u32, u32)> {
    if let Some(tp) = tp_options(spec, 8).find(|&tp| fits_split(spec, w, gpu, tp, 1)) {
        return Some((tp, 1));
    }
    let widest = tp_options(spec, 8).last().unwrap_or(1);
    let layers = spec.transformer().map_or(1, |t| t.layers);
    let max_pp = (MAX_SEARCH_GPUS / widest).min(layers);
    smallest_fitting(2, max_pp, |pp| fits_split(spec, w, gpu, widest, pp)).map(|pp| (widest, pp))
}

/// GPUs a training workload needs with ZeRO-3 (powers of two up to [`MAX_SEARCH_GPUS`]),
/// the smallest power by a galloping search over the exponents (ZeRO-3 shards weights, gradients and
/// optimizer state over every GPU, so per-GPU memory falls as the count doubles).
pub(super) fn training_needs(spec: &ModelSpec, w: &Workload, gpu: &Gpu) -> Option<u32> {
    let mut c = *w;
    c.zero = 3;
    c.tp = 1;
    c.pp = 1;
    smallest_fitting(1, MAX_SEARCH_GPUS.ilog2(), |e| try_fit(spec, &c, 1 << e, gpu).is_some_and(|t| t.verdict.fits()))
        .map(|e| 1 << e)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::analysis::fit::WorkloadKind;
    use crate::core::catalog::Catalog;

    /// The galloping searches give what a search through every value in order gives, for every catalog
    /// model under every standard workload on every GPU memory size in the catalog (only the
    /// memory size enters the fit): the linear searches below are the ones they replaced.
    #[test]
    fn the_needs_searches_agree_with_linear_searches_on_the_whole_catalog() {
        let linear_inference = |spec: &ModelSpec, w: &Workload, gpu: &Gpu| {
            let widest = tp_options(spec, 8).last().unwrap_or(1);
            let layers = spec.transformer().map_or(1, |t| t.layers);
            let max_pp = (MAX_SEARCH_GPUS / widest).min(layers);
            tp_options(spec, 8)
                .map(|tp| (tp, 1))
                .chain((2..=max_pp).map(|pp| (widest, pp)))
                .find(|&(tp, pp)| fits_split(spec, w, gpu, tp, pp))
        };
        let linear_training = |spec: &ModelSpec, w: &Workload, gpu: &Gpu| {
            std::iter::successors(Some(2u32), |n| n.checked_mul(2)).take_while(|&n| n <= MAX_SEARCH_GPUS).find(|&n| {
                let c = Workload { zero: 3, tp: 1, pp: 1, ..*w };
                try_fit(spec, &c, n, gpu).is_some_and(|t| t.verdict.fits())
            })
        };
        let catalog = Catalog::embedded().unwrap();
        let mut sizes: Vec<&Gpu> = Vec::new();
        for gpu in &catalog.gpus {
            if !sizes.iter().any(|g| g.memory_gib.to_bits() == gpu.memory_gib.to_bits()) {
                sizes.push(gpu);
            }
        }
        assert!(sizes.len() >= 10, "{} memory sizes", sizes.len());
        let (mut searched, mut found, mut beyond) = (0, 0, 0);
        for model in catalog.models.iter() {
            let spec = ModelSpec::from_model(model);
            for kind in WorkloadKind::ALL {
                let Some(w) = kind.workload(&spec) else { continue };
                for gpu in &sizes {
                    searched += 1;
                    if kind.is_inference() {
                        let expected = linear_inference(&spec, &w, gpu);
                        assert_eq!(inference_needs(&spec, &w, gpu), expected, "{} {kind:?} on {}", model.id, gpu.id);
                        found += usize::from(expected.is_some_and(|(_, pp)| pp > 2));
                        beyond += usize::from(expected.is_none());
                    } else {
                        let expected = linear_training(&spec, &w, gpu);
                        assert_eq!(training_needs(&spec, &w, gpu), expected, "{} {kind:?} on {}", model.id, gpu.id);
                        found += usize::from(expected.is_some_and(|n| n > 2));
                        beyond += usize::from(expected.is_none());
                    }
                }
            }
        }
        // The comparison covers answers inside the ranges and past their ends.
        assert!(searched > 1000 && found > 100 && beyond > 0, "{searched} searched, {found} found, {beyond} beyond");
        assert_eq!(smallest_fitting(2, 61, |x| x >= 17), Some(17));
        assert_eq!(smallest_fitting(2, 61, |x| x >= 2), Some(2));
        assert_eq!(smallest_fitting(2, 61, |x| x >= 61), Some(61));
        assert_eq!(smallest_fitting(2, 61, |_| false), None);
        assert_eq!(smallest_fitting(5, 4, |_| true), None);
        // Evaluations: one for an answer at the start, one per probe (2, 3, 5, 9, 17, 33, 61)
        // when nothing fits, where the walk through 2..=61 took 60.
        let count = |answer: u32| {
            let mut n = 0;
            smallest_fitting(2, 61, |x| {
                n += 1;
                x >= answer
            });
            n
        };
        assert_eq!((count(2), count(3), count(62)), (1, 2, 7));
        assert!(count(17) <= 8 && count(40) <= 11, "{} {}", count(17), count(40));
    }
}
