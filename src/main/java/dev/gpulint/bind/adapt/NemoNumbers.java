package dev.gpulint.bind.adapt;

import dev.gpulint.spec.Located;
import dev.gpulint.spec.ParallelDim;
import dev.gpulint.tree.ListNode;
import dev.gpulint.tree.MappingNode;
import dev.gpulint.tree.Node;
import dev.gpulint.tree.ScalarNode;
import java.util.Set;

/**
 * The whole numbers NeMo 1, NeMo 2 and Megatron-Bridge read from their YAML (the parallel sizes, batch sizes, sequence
 * length and the model's dimensions), read as each framework gets them: none of the three converts a value to the int its
 * field wants, so a list, a mapping, a quoted number, a word, a fraction, or a null where an int is needed stops the job at
 * start-up. It is SYN002 at the value ({@link DraftValues#refuseKind}), in this one place for the three adapters, with the
 * message saying how the value reaches the framework ({@link Reader}).
 * <ul>
 * <li>NeMo 1: each value is handed over by OmegaConf as the YAML wrote it, with no conversion in NeMo's untyped Hydra
 * configuration (omegaconf 2.3's {@code DictConfig.get(key, default)} returns the node's value: a list as a ListConfig, a
 * mapping as a DictConfig, a quoted value as a str, a null as None — the default only when the key is absent or {@code ???};
 * omegaconf/dictconfig.py {@code _get_impl}, omegaconf/basecontainer.py {@code _resolve_with_default}). NeMo 1 then computes
 * with it as an int: megatron_base_model.py passes {@code cfg.get('tensor_model_parallel_size', 1)} and the other sizes to
 * initialize_model_parallel_for_nemo, whose fake_initialize_model_parallel takes {@code min(tensor_model_parallel_size_,
 * world_size)} and multiplies the sizes (nemo/collections/nlp/modules/common/megatron/megatron_init.py, NVIDIA/NeMo at
 * commit dc1cce0e971c655393b5dcc2fe93289fabd25d83), and builds Megatron-Core's TransformerConfig from the model keys.
 * <li>Megatron-Bridge: {@code ConfigContainer.from_yaml} loads the file with {@code yaml.safe_load} and instantiates each
 * {@code _target_} class with the values as loaded (training/utils/config_utils.py, NVIDIA-NeMo/Megatron-Bridge at commit
 * 0315ce8cd3edfcc7b6d68d79da68f3b0577539c9); an override file is merged with OmegaConf on an untyped copy of the recipe and
 * each value set with {@code setattr} (training/utils/omegaconf_utils.py {@code _apply_overrides}, at commit
 * 158aa4e2895d610275aabc9b579b1db9e0f062da). A dataclass checks no type, so the value reaches ConfigContainer.validate and
 * the model's finalize as written, which compute with it ({@code self.model.context_parallel_size > 1},
 * {@code tensor_model_parallel_size * pipeline_model_parallel_size * ...}: training/config.py at commit
 * 003e863ad19f6db7958d976c961a0d7d9abb1314) before Megatron-Core's initialize_model_parallel multiplies the sizes
 * ({@code model_size = tensor_model_parallel_size * pipeline_model_parallel_size * context_parallel_size},
 * {@code world_size % model_size}: megatron/core/parallel_state.py, NVIDIA/Megatron-LM as stored at commit
 * 934c8260ada361db9b155d504c5b20600731d773).
 * <li>NeMo 2: fiddle builds the MegatronStrategy, the data module and the model's config from the recipe with the values as
 * written (fiddle converts nothing); the strategy hands the sizes to Megatron-Core's initialize_model_parallel
 * (nemo/lightning/_strategy_lib.py's init_model_parallel, NVIDIA/NeMo at commit 00fdee33ed6f42e247cbbda367f042ca9e87c19c),
 * and Megatron-Core's TransformerConfig.__post_init__ computes with the model's dimensions.
 * </ul>
 * A null is refused only for the four sizes all three multiply at once (tp, pp, cp, ep: {@code min(None, world_size)},
 * {@code None * 2}); a null virtual pipeline size is "no interleaving", and the model's other nulls ({@code num_query_groups},
 * {@code kv_channels}) are "derive it" (Megatron-Core's {@code Optional[int]} fields). Placeholders ({@code ???},
 * {@code ${oc.env:TP}}) stay unknown, as everywhere.
 * <p>A YAML boolean is a Python bool, and a bool is an int (Python's {@code bool} subclasses {@code int}: {@code True * 2 == 2},
 * {@code 16 % True == 0}, {@code range(True)} is one step), and none of the code above checks the type: so {@code true}
 * (PyYAML's YAML 1.1 words {@code true}, {@code yes}, {@code on}) runs as 1 in all three (Megatron-Core's
 * initialize_model_parallel builds its rank groups from {@code tp * pp * cp} and {@code world_size // model_size}; NeMo 1's
 * {@code min(True, world_size)} is True). It is read as 1 with a line in the plan's assumptions, not refused: the layout runs.
 * {@code false} is 0 to Python, a size that divides by zero ({@code world_size % 0}) or a model of nothing: refused.
 */
final class NemoNumbers {
    private NemoNumbers() {}

    /** The sizes the frameworks multiply before anything else: a null there is None in min() or a product. */
    static final Set<String> NULL_REFUSED = Set.of("tensor_model_parallel_size", "pipeline_model_parallel_size",
            "context_parallel_size", "expert_model_parallel_size");

    /** The framework that reads the number: how the value reaches it, who computes with it, and its default size. */
    enum Reader {
        NEMO1("NeMo 1", "OmegaConf hands NeMo 1 the value as the YAML writes it", "NeMo 1 computes with it as an int",
                "megatron_init.py's fake_initialize_model_parallel builds the rank groups from it", "NeMo's default, 1",
                "NeMo's default"),
        NEMO2("NeMo 2", "fiddle builds NeMo 2's strategy, data module and model config with the value as the YAML writes it"
                + " (fiddle converts nothing)", "they compute with it as an int",
                "the MegatronStrategy hands it to Megatron-Core's initialize_model_parallel, which multiplies the parallel sizes",
                "Megatron-Core's default, 1", "the default"),
        BRIDGE("Megatron-Bridge", "Megatron-Bridge sets the config's field to the value as the YAML writes it"
                + " (ConfigContainer.from_yaml, and omegaconf_utils' apply_overrides for an override file, convert nothing)",
                "computes with it as an int",
                "ConfigContainer.validate and Megatron-Core's initialize_model_parallel multiply the parallel sizes",
                "Megatron-Core's default, 1", "the default");

        final String name, hands, computes, sizes, defaultSize, noInterleaving;

        Reader(String name, String hands, String computes, String sizes, String defaultSize, String noInterleaving) {
            this.name = name;
            this.hands = hands;
            this.computes = computes;
            this.sizes = sizes;
            this.defaultSize = defaultSize;
            this.noInterleaving = noInterleaving;
        }

        /** What computes with {@code key} (the parenthesis of the message). */
        String why(String key) {
            if (NULL_REFUSED.contains(key)) return sizes;
            if (this == NEMO1) return "it builds Megatron-Core's TransformerConfig from it";
            if (key.equals("virtual_pipeline_model_parallel_size")) return sizes;
            if (key.endsWith("batch_size")) return "the micro-batches of a step are counted from it";
            if (key.endsWith("seq_length") || key.equals("sequence_length")) return "the data set's samples are cut to it";
            return "Megatron-Core's TransformerConfig computes the model's shapes from it";
        }
    }

    /** NeMo 1's model[key] ({@code model.} + key in messages): {@link #read(JobDraft, Node, String, String, Reader)}. */
    static Located<Long> read(JobDraft j, Node n, String key) {
        return read(j, n, key, "model." + key, Reader.NEMO1);
    }

    /**
     * The whole number at {@code n} (the node {@code key} leads to, interpolations followed), written under {@code where}, or
     * null: absent, a placeholder, a null the framework takes, or refused (SYN002) for being a list, a mapping, a quoted
     * string, a word, a fraction, {@code false}, or a null of {@link #NULL_REFUSED}. {@code true} is 1, said in the
     * assumptions. A whole number out of bounds is returned for DraftBounds to judge.
     */
    static Located<Long> read(JobDraft j, Node n, String key, String where, Reader r) {
        if (n == null) return null;
        if (n instanceof ScalarNode s && !s.quoted() && Boolean.TRUE.equals(yamlBool(s.text().strip()))) {
            j.unpriced.add(where + " = " + s.text().strip() + ": " + r.hands + ", and Python's True is the int 1 (bool is a"
                    + " subclass of int), so " + r.name + " runs with 1 (" + r.why(key) + "); priced as 1; write 1, or the number meant");
            return new Located<>(1L, s.span());
        }
        String kind = kind(n, key);
        if (kind == null) {
            if (!(n instanceof ScalarNode s)) return null;
            Long v = s.quoted() || s.isNull() ? null : yamlInt(s.text().strip());
            return v == null ? TreeValues.whole(s) : new Located<>(v, s.span());
        }
        String fix = fix(n, key);
        DraftValues.refuseKind(j, n.span(), where, kind, "a whole number, written plainly" + (fix == null ? "" : " (" + fix + ")")
                + ": " + r.hands + " and " + r.computes + " (" + r.why(key) + "), so the job stops at start-up", instead(key, where, r));
        return null;
    }

    /**
     * A parallel size read as {@link #read} reads it: its number, or null. One written but not a number and not refused (a
     * placeholder, an interpolation) is unknown, not the default; a refused one takes the default, as its message says.
     */
    static Located<Long> size(JobDraft j, ParallelDim d, Node n, String key, String where, Reader r) {
        Located<Long> v = j.key(where, read(j, n, key, where, r));
        if (v == null && !j.leftOut.contains(where) && n instanceof ScalarNode s && !s.isNull()
                && !s.text().strip().equalsIgnoreCase("null")) {
            j.unknown(d);
        }
        return v;
    }

    /** The kind of value the framework cannot compute with, for the message ("a list", "null", "a quoted string ('2')"); null when it can. */
    static String kind(Node n, String key) {
        if (n instanceof ListNode) return "a list";
        if (n instanceof MappingNode) return "a mapping";
        ScalarNode s = (ScalarNode) n;
        if (s.isNull()) return NULL_REFUSED.contains(key) ? "null" : null;
        String t = s.text().strip();
        if (!s.quoted() && TreeValues.placeholder(t)) return null;
        String shown = "'" + dev.gpulint.spec.Quantities.shortText(s.text().trim()) + "'";
        if (s.quoted()) return TreeValues.placeholder(t) ? null : "a quoted string (" + shown + ")";
        if (yamlInt(t) != null) return null;
        if (t.matches("[-+]?([0-9]+\\.[0-9]*|\\.[0-9]+)([eE][-+]?[0-9]+)?|[-+]?[0-9]+[eE][-+]?[0-9]+")) return shown + ", a fraction";
        if (Boolean.FALSE.equals(yamlBool(t))) return shown + ", a boolean Python reads as 0";
        if (TreeValues.boolWord(t) != null) return shown + ", a boolean";
        return shown + ", a word";
    }

    /** PyYAML's YAML 1.1 int resolver (yaml/resolver.py; OmegaConf's loader subclasses SafeLoader and keeps it). */
    private static final java.util.regex.Pattern YAML_INT = java.util.regex.Pattern.compile("[-+]?0b[0-1_]+|[-+]?0[0-7_]+"
            + "|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+");

    /**
     * The int PyYAML reads an unquoted {@code t} as (yaml/constructor.py {@code construct_yaml_int}: underscores dropped,
     * 0b binary, 0x hex, a leading 0 octal, a:b sexagesimal), or null when it reads no int (a string, a float, or a load
     * error such as {@code 0b_}). {@code 1_024}, {@code +2}, {@code 0x10} are ints the frameworks run with, not words;
     * {@code 010} is 8. Beyond a long it is {@link Long#MAX_VALUE} ({@link Long#MIN_VALUE} below), for DraftBounds to report.
     */
    static Long yamlInt(String t) {
        if (!YAML_INT.matcher(t).matches()) return null;
        String v = t.replace("_", "");
        int sign = 1;
        if (v.startsWith("-") || v.startsWith("+")) {
            if (v.charAt(0) == '-') sign = -1;
            v = v.substring(1);
        }
        // bounded work: a number this long is out of every bound whatever its digits (leading zeros aside)
        if (v.length() > 4096 && !v.matches("0[0bx]?0*")) return sign < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
        java.math.BigInteger b;
        if (v.equals("0")) b = java.math.BigInteger.ZERO;
        else if (v.startsWith("0b")) b = v.length() > 2 ? new java.math.BigInteger(v.substring(2), 2) : null;
        else if (v.startsWith("0x")) b = v.length() > 2 ? new java.math.BigInteger(v.substring(2), 16) : null;
        else if (v.startsWith("0")) b = new java.math.BigInteger(v, 8);
        else if (v.contains(":")) {
            b = java.math.BigInteger.ZERO;
            for (String d : v.split(":")) b = b.multiply(java.math.BigInteger.valueOf(60)).add(new java.math.BigInteger(d));
        } else b = new java.math.BigInteger(v);
        if (b == null) return null;
        if (sign < 0) b = b.negate();
        if (b.bitLength() >= 64) return b.signum() < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
        return b.longValue();
    }

    /** The boolean PyYAML's YAML 1.1 resolver reads {@code t} as (true/True/TRUE, yes, on; false, no, off), or null. */
    static Boolean yamlBool(String t) {
        String lower = t.toLowerCase(java.util.Locale.ROOT);
        if (lower.isEmpty()) return null;
        boolean spelt = t.equals(lower) || t.equals(t.toUpperCase(java.util.Locale.ROOT))
                || t.equals(Character.toUpperCase(lower.charAt(0)) + lower.substring(1));
        if (!spelt) return null;
        if (lower.equals("true") || lower.equals("yes") || lower.equals("on")) return true;
        if (lower.equals("false") || lower.equals("no") || lower.equals("off")) return false;
        return null;
    }

    /** How to write it, when the value holds one whole number: {@code key: 2}. */
    private static String fix(Node n, String key) {
        Node one = n instanceof ListNode l && l.items().size() == 1 ? l.items().get(0) : n;
        if (one instanceof ScalarNode s && !s.isNull() && s.text().strip().matches("[0-9]{1,9}")) return key + ": " + s.text().strip();
        return null;
    }

    /** What the estimate takes without the value: the default for the sizes, the key not written for the rest. */
    private static String instead(String key, String where, Reader r) {
        if (NULL_REFUSED.contains(key)) return "the estimate takes " + r.defaultSize;
        if (key.equals("virtual_pipeline_model_parallel_size")) return "the estimate takes no interleaving, " + r.noInterleaving;
        return "the estimate reads " + where + " as not written";
    }
}
