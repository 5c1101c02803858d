package dev.gpulint.bind.adapt;

import dev.gpulint.spec.Located;
import dev.gpulint.spec.ParallelDim;
import java.util.List;

/**
 * Megatron's {@code --use-tp-pp-dp-mapping} (Megatron-Bridge's {@code dist.use_tp_pp_dp_mapping}): the rank order the job
 * runs in. Megatron-LM's initialize_distributed passes {@code order='tp-cp-ep-dp-pp' if not args.use_tp_pp_dp_mapping
 * else 'tp-cp-ep-pp-dp'} to initialize_model_parallel (NVIDIA/Megatron-LM megatron/training/initialize.py; Megatron-Bridge
 * src/megatron/bridge/training/initialize.py the same from dist_config; releases before context and expert parallelism
 * joined the order passed 'tp-pp-dp'), so pp moves inside dp: the job's dp·cp gradient group is no longer one block when
 * pp &gt; 1 (derive/estimate/RankGroup).
 *
 * <p>Megatron-Core refuses the order where the attention and expert grids would put pipeline stages on different ranks:
 * initialize_model_parallel asserts {@code order.endswith("pp") or pipeline_model_parallel_size == 1 or
 * expert_data_parallel_size == data_parallel_size}, "When not using pp-last rank ordering, the data parallel size of the
 * attention and moe layers must be the same" (megatron/core/parallel_state.py at commit
 * 00caa53af30912914981c86f39db123961678bbd). With the GPUs ÷ (etp·ep·pp) expert data-parallel ranks and GPUs ÷
 * (tp·cp·pp) data-parallel ranks that is etp·ep = tp·cp, so a dense job (ep 1, etp = tp) with cp &gt; 1 and pp &gt; 1 stops
 * there. Such a job is SYN002 at the switch ({@link DraftValues#refuse}) and keeps the default order.
 *
 * <p>NeMo 2's {@code MegatronStrategy(use_tp_pp_dp_mapping=...)} (a recipe's {@code trainer.strategy.use_tp_pp_dp_mapping})
 * takes the same order and the same assert: nemo/lightning/_strategy_lib.py's init_model_parallel passes
 * {@code order="tp-cp-ep-pp-dp" if app_state.use_tp_pp_dp_mapping else "tp-cp-ep-dp-pp"}, and
 * nemo/lightning/megatron_init.py's fake_initialize_model_parallel asserts {@code not use_tp_pp_dp_mapping or
 * pipeline_model_parallel_size == 1 or expert_data_parallel_size == data_parallel_size} (NVIDIA/NeMo at commit
 * 00fdee33ed6f42e247cbbda367f042ca9e87c19c, megatron_strategy.py's argument and ParallelismConfig field of that name).
 *
 * <p>NeMo 1's {@code model.use_tp_pp_dp_mapping} ({@link #nemo1}) passes the older order {@code 'tp-pp-dp'}
 * (nemo/collections/nlp/parts/nlp_overrides.py's init_model_parallel, NVIDIA/NeMo at commit
 * dd84799bfc7db1d2fe4759fcb2ac83d3b50f05b8; megatron_base_model.py reads {@code cfg.get('use_tp_pp_dp_mapping', False)}).
 * Megatron-Core's RankGenerator appends the dimensions an order leaves out after it and raises {@code "The size of (cp) is
 * (2), but you haven't specified the order"} when one of them has more than one rank, so that order runs only with cp 1 and
 * ep 1, where it lays the groups out as tp-cp-ep-pp-dp does.
 */
final class TpPpDpMapping {
    private TpPpDpMapping() {}

    /** Megatron-LM's order under the switch, fastest first. */
    static final List<ParallelDim> ORDER = List.of(ParallelDim.TP, ParallelDim.CP, ParallelDim.EP, ParallelDim.PP, ParallelDim.DP);

    /**
     * The job's rank order when the switch {@code on} (null: absent or off) is on and Megatron-Core takes it with the
     * draft's sizes (those not written are 1; expert tp is tp's when not written); refused (SYN002) and null otherwise.
     */
    static Located<List<ParallelDim>> order(JobDraft j, Located<Boolean> on, String key) {
        if (on == null || !on.value()) return null;
        long tp = size(j, j.tp, ParallelDim.TP), cp = size(j, j.cp, ParallelDim.CP), pp = size(j, j.pp, ParallelDim.PP),
                ep = size(j, j.ep, ParallelDim.EP), etp = j.etp == null ? tp : size(j, j.etp, ParallelDim.ETP);
        if (tp > 0 && cp > 0 && pp > 0 && ep > 0 && etp > 0 && pp > 1 && etp * ep != tp * cp) {
            DraftValues.refuse(j, on.span(), key, "true", "off with pp " + pp + ", or expert tp × ep (" + etp + " × " + ep
                    + ") equal to tp × cp (" + tp + " × " + cp + "): Megatron-Core's initialize_model_parallel asserts 'When not "
                    + "using pp-last rank ordering, the data parallel size of the attention and moe layers must be the same' "
                    + "(megatron/core/parallel_state.py), and the order tp-cp-ep-pp-dp gives the attention layers GPUs ÷ (tp·cp·pp) "
                    + "data-parallel ranks and the expert layers GPUs ÷ (etp·ep·pp), so the job stops at start-up; to keep the "
                    + "switch set cp to 1 or pp to 1, or drop it",
                    "the estimate keeps the default rank order tp-cp-ep-dp-pp");
            return null;
        }
        return new Located<>(ORDER, on.span());
    }

    /**
     * NeMo 1's switch: the order {@code 'tp-pp-dp'}, which Megatron-Core's RankGenerator takes only with cp and ep of one
     * rank (the attention generator has cp, the expert generator ep; either raises for a size it has no place for). Then it
     * is tp-cp-ep-pp-dp's layout ({@link #ORDER}); with cp or ep above 1 the job stops at start-up: SYN002 at the switch and
     * the default order kept. Sizes unknown (0) are not judged.
     */
    static Located<List<ParallelDim>> nemo1(JobDraft j, Located<Boolean> on, String key) {
        if (on == null || !on.value()) return null;
        long cp = size(j, j.cp, ParallelDim.CP), ep = size(j, j.ep, ParallelDim.EP);
        if (cp > 1 || ep > 1) {
            ParallelDim d = cp > 1 ? ParallelDim.CP : ParallelDim.EP;
            long n = cp > 1 ? cp : ep;
            DraftValues.refuse(j, on.span(), key, "true", "off with " + d.label() + " " + n + ", or context and expert parallel"
                    + " sizes of 1: NeMo 1 passes the rank order 'tp-pp-dp' (nlp_overrides.py's init_model_parallel), which has no"
                    + " place for " + d.label() + ", and Megatron-Core's RankGenerator raises 'The size of (" + d.label() + ") is ("
                    + n + "), but you haven't specified the order' (megatron/core/parallel_state.py), so the job stops at start-up;"
                    + " to keep the switch set " + (cp > 1 && ep > 1 ? "cp and ep" : d.label()) + " to 1, or drop it",
                    "the estimate keeps the default rank order tp-cp-ep-dp-pp");
            return null;
        }
        return new Located<>(ORDER, on.span());
    }

    /** A size as written: 1 when not written, 0 when written but unknown (a placeholder: nothing is judged). */
    private static long size(JobDraft j, Located<Long> v, ParallelDim d) {
        if (j.unknown.contains(d.key())) return 0;
        return v == null ? 1 : v.value() == null ? 0 : v.value();
    }
}
