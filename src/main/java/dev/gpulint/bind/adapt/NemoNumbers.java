package dev.gpulint.bind.adapt;

import dev.gpulint.spec.Located;
import dev.gpulint.tree.ListNode;
import dev.gpulint.tree.MappingNode;
import dev.gpulint.tree.Node;
import dev.gpulint.tree.ScalarNode;
import java.util.Set;

/**
 * The whole numbers NeMo 1 reads from its {@code model:} section, read as NeMo 1 gets them: each value is handed over by
 * OmegaConf as the YAML wrote it, with no conversion in NeMo's untyped Hydra configuration (omegaconf 2.3's
 * {@code DictConfig.get(key, default)} returns the node's value: a list as a ListConfig, a mapping as a DictConfig, a quoted
 * value as a str, a null as None — the default only when the key is absent or {@code ???}; omegaconf/dictconfig.py
 * {@code _get_impl}, omegaconf/basecontainer.py {@code _resolve_with_default}). NeMo 1 then computes with it as an int:
 * megatron_base_model.py passes {@code cfg.get('tensor_model_parallel_size', 1)} and the other sizes to
 * initialize_model_parallel_for_nemo, whose fake_initialize_model_parallel takes {@code min(tensor_model_parallel_size_,
 * world_size)} and multiplies the sizes (nemo/collections/nlp/modules/common/megatron/megatron_init.py, NVIDIA/NeMo at
 * commit dc1cce0e971c655393b5dcc2fe93289fabd25d83), and builds Megatron-Core's TransformerConfig from the model keys.
 * A value of another kind stops the job at start-up, so it is SYN002 at the value ({@link DraftValues#refuseKind}), in
 * one place for every model key the NeMo adapter reads. A null is refused only for the four sizes NeMo 1 computes with
 * at once (tp, pp, cp, ep: {@code min(None, world_size)}); a null virtual pipeline size is NeMo's "no interleaving", and
 * the model's other nulls ({@code num_query_groups}, {@code kv_channels}) are its "derive it". Placeholders
 * ({@code ???}, {@code ${oc.env:TP}}) stay unknown, as everywhere.
 */
final class NemoNumbers {
    private NemoNumbers() {}

    /** The sizes fake_initialize_model_parallel computes with before anything else: a null there is None in min() or a product. */
    static final Set<String> NULL_REFUSED = Set.of("tensor_model_parallel_size", "pipeline_model_parallel_size",
            "context_parallel_size", "expert_model_parallel_size");

    /**
     * The whole number at {@code n} (the node model[key] leads to, interpolations followed), or null: absent, a placeholder,
     * a null NeMo takes, or refused (SYN002) for being a list, a mapping, a quoted string, a word, a fraction, or a null of
     * {@link #NULL_REFUSED}. A whole number out of bounds is returned for DraftBounds to judge.
     */
    static Located<Long> read(JobDraft j, Node n, String key) {
        if (n == null) return null;
        String kind = kind(n, key);
        if (kind == null) return n instanceof ScalarNode s ? TreeValues.whole(s) : null;
        String fix = fix(n, key);
        DraftValues.refuseKind(j, n.span(), "model." + key, kind, "a whole number, written plainly" + (fix == null ? "" : " (" + fix + ")")
                + ": OmegaConf hands NeMo 1 the value as the YAML writes it and NeMo 1 computes with it as an int ("
                + (NULL_REFUSED.contains(key) ? "megatron_init.py's fake_initialize_model_parallel builds the rank groups from it"
                        : "it builds Megatron-Core's TransformerConfig from it")
                + "), so the job stops at start-up", instead(key));
        return null;
    }

    /** The kind of value NeMo 1 cannot compute with, for the message ("a list", "null", "a quoted string ('2')"); null when it can. */
    static String kind(Node n, String key) {
        if (n instanceof ListNode) return "a list";
        if (n instanceof MappingNode) return "a mapping";
        ScalarNode s = (ScalarNode) n;
        if (s.isNull()) return NULL_REFUSED.contains(key) ? "null" : null;
        String t = s.text().strip();
        if (!s.quoted() && TreeValues.placeholder(t)) return null;
        String shown = "'" + dev.gpulint.spec.Quantities.shortText(s.text().trim()) + "'";
        if (s.quoted()) return TreeValues.placeholder(t) ? null : "a quoted string (" + shown + ")";
        if (t.matches("-?[0-9]+")) return null;
        if (t.matches("[-+]?([0-9]+\\.[0-9]*|\\.[0-9]+)([eE][-+]?[0-9]+)?|[-+]?[0-9]+[eE][-+]?[0-9]+")) return shown + ", a fraction";
        if (TreeValues.boolWord(t) != null) return shown + ", a boolean";
        return shown + ", a word";
    }

    /** How to write it, when the value holds one whole number: {@code key: 2}. */
    private static String fix(Node n, String key) {
        Node one = n instanceof ListNode l && l.items().size() == 1 ? l.items().get(0) : n;
        if (one instanceof ScalarNode s && !s.isNull() && s.text().strip().matches("[0-9]{1,9}")) return key + ": " + s.text().strip();
        return null;
    }

    /** What the estimate takes without the value: NeMo's default for the sizes, the key not written for the model's shape. */
    private static String instead(String key) {
        if (NULL_REFUSED.contains(key)) return "the estimate takes NeMo's default, 1";
        if (key.equals("virtual_pipeline_model_parallel_size")) return "the estimate takes no interleaving, NeMo's default";
        return "the estimate reads model." + key + " as not written";
    }
}
