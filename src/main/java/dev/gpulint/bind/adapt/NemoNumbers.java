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
 * field wants, so a list, a mapping, a quoted number, a word, a float, or a null where an int is needed stops the job at
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
 * <li>NeMo 2: NeMo-Run loads the recipe's YAML ({@code YamlSerializer.deserialize}: {@code yaml.safe_load}, then
 * {@code OmegaConf.resolve} through {@code dictconfig_to_dot_list}, which writes each value back as the text
 * {@code key=value}) and builds the fiddle config with {@code parse_cli_args}, which parses each text by the field's
 * annotation: {@code TypeParser.parse_int} is {@code int(value)} (nemo_run/core/serialization/yaml.py, nemo_run/lazy.py,
 * nemo_run/cli/cli_parser.py, NVIDIA/NeMo-Run at commit 075236b24e040702228367c96bfadb40879de12b; the CLI's
 * {@code --yaml}/{@code @file} goes the same way). So NeMo 2 converts where the other two do not: a quoted '8' is the
 * text 8, an int; an {@code ${oc.env:TP,2}} is resolved to its text and parsed, a number or not by the environment
 * (unknown, as a placeholder); but {@code true} is the text True, which int() refuses (so refused, not 1), as it refuses a
 * float, a list, a word or None. The strategy then hands the sizes to Megatron-Core's initialize_model_parallel
 * (nemo/lightning/_strategy_lib.py's init_model_parallel, NVIDIA/NeMo at commit 00fdee33ed6f42e247cbbda367f042ca9e87c19c).
 * <li>SageMaker HyperPod's checkpointless NeMo 2 recipes (a top-level {@code strategy} beside {@code trainer}, {@link Reader#HYPERPOD})
 * go through no NeMo-Run: their training script is a {@code @hydra.main} program (OmegaConf's YAML loader), which builds
 * {@code CheckpointlessMegatronStrategy(**cfg.strategy, ddp=...)}, the model's config class from
 * {@code OmegaConf.to_container(cfg.model.config, resolve=True)} and the data module from {@code cfg.data.micro_batch_size}
 * and the other values as loaded (aws/sagemaker-hyperpod-checkpointless-training
 * examples/llama3/llama3_70b_pretrain_checkpointless.py at 24520b41db0df3495b3946a7b74edaa70fbc339d, TrainerBuilder). So they
 * are read as NeMo 1's OmegaConf values are, not as NeMo-Run's texts: a quoted '8' is a str (refused), an
 * {@code ${oc.env:TP,8}} a str whatever the environment (refused), {@code true} the int 1 (said), {@code 1e3} OmegaConf's float.
 * </ul>
 * A null is refused only for the four sizes all three multiply at once (tp, pp, cp, ep: {@code min(None, world_size)},
 * {@code None * 2}); a null virtual pipeline size is "no interleaving", and the model's other nulls ({@code num_query_groups},
 * {@code kv_channels}) are "derive it" (Megatron-Core's {@code Optional[int]} fields). Placeholders ({@code ???},
 * {@code ${TP}}, {@code ${oc.decode:${oc.env:TP,2}}}) stay unknown, as everywhere; an OmegaConf {@code ${oc.env:TP,2}} alone
 * is a string whatever the environment to NeMo 1 and Megatron-Bridge ({@link #envString}), so SYN002 (NeMo 2 parses the text:
 * unknown). A number with a dot or an exponent is named as the
 * file's loader reads it ({@link #floatKind}: {@code 1e3} is a string to PyYAML, a float to OmegaConf's loader).
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
        NEMO2("NeMo 2", "NeMo-Run's YAML loader gives NeMo 2's int fields the value's text through Python's int() (a quoted '8'"
                + " is 8)", "int() cannot read this one, a ParseError",
                "the MegatronStrategy hands it to Megatron-Core's initialize_model_parallel, which multiplies the parallel sizes",
                "Megatron-Core's default, 1", "the default"),
        HYPERPOD("NeMo 2", "SageMaker HyperPod's checkpointless recipe is loaded by Hydra (@hydra.main, OmegaConf's YAML loader) and its"
                + " training script hands each value on as the YAML writes it (CheckpointlessMegatronStrategy(**cfg.strategy), the model's"
                + " config class built from OmegaConf.to_container(cfg.model.config, resolve=True)), not through NeMo-Run's int()",
                "NeMo 2 computes with it as an int",
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
     * string, a word, a float, an {@code ${oc.env:...}} string, {@code false}, or a null of {@link #NULL_REFUSED}. {@code true} is 1, said in the
     * assumptions (NeMo 2: refused, int() of the text True raises; its quoted whole numbers are read, {@link #pythonInt}). A whole number out of bounds is returned for DraftBounds to judge.
     */
    static Located<Long> read(JobDraft j, Node n, String key, String where, Reader r) {
        if (n == null) return null;
        if (r != Reader.NEMO2 && n instanceof ScalarNode s && !s.quoted() && Boolean.TRUE.equals(yamlBool(s.text().strip()))) {
            j.unpriced.add(where + " = " + s.text().strip() + ": " + r.hands + ", and Python's True is the int 1 (bool is a"
                    + " subclass of int), so " + r.name + " runs with 1 (" + r.why(key) + "); priced as 1; write 1, or the number meant");
            return new Located<>(1L, s.span());
        }
        String kind = kind(n, key, r);
        if (kind == null) {
            if (!(n instanceof ScalarNode s)) return null;
            Long v = s.quoted() || s.isNull() ? null : yamlInt(s.text().strip());
            if (v == null && r == Reader.NEMO2 && !s.isNull()) v = pythonInt(s.text());
            return v == null ? TreeValues.whole(s) : new Located<>(v, s.span());
        }
        String fix = fix(n, key);
        String decoded = n instanceof ScalarNode s ? decoded(s) : null;
        DraftValues.refuseKind(j, n.span(), where, kind, "a whole number, written plainly" + (fix == null ? "" : " (" + fix + ")")
                + (decoded == null ? "" : " or parsed from the variable (" + key + ": " + decoded + ")")
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

    /**
     * The kind of value {@code r}'s framework cannot compute with, for the message ("a list", "null", "a quoted string
     * ('2')", "'1e3', a string to PyYAML..."); null when it can, or when it depends on what the file does not show (a
     * placeholder, an interpolation, {@code ${oc.decode:${oc.env:TP,2}}}).
     */
    static String kind(Node n, String key, Reader r) {
        if (n instanceof ListNode) return "a list";
        if (n instanceof MappingNode) return "a mapping";
        ScalarNode s = (ScalarNode) n;
        if (s.isNull()) return NULL_REFUSED.contains(key) ? "null" : null;
        String t = s.text().strip();
        String env = r == Reader.NEMO2 ? null : envString(t, key);
        if (env != null) return env;
        if (!s.quoted() && TreeValues.placeholder(t)) return null;
        String shown = "'" + dev.gpulint.spec.Quantities.shortText(s.text().trim()) + "'";
        if (r == Reader.NEMO2 && pythonInt(t) != null && (s.quoted() || yamlInt(t) == null)) return null;
        if (s.quoted()) return TreeValues.placeholder(t) ? null : "a quoted string (" + shown + ")";
        if (yamlInt(t) != null) return null;
        if (r == Reader.NEMO2 && yamlBool(t) != null) return shown + ", a boolean, the text '" + (yamlBool(t) ? "True" : "False")
                + "' to int()";
        String fl = floatKind(t, r);
        if (fl != null) return shown + ", " + fl;
        if (Boolean.FALSE.equals(yamlBool(t))) return shown + ", a boolean Python reads as 0";
        if (TreeValues.boolWord(t) != null) return shown + ", a boolean";
        return shown + ", a word";
    }

    /** PyYAML's YAML 1.1 float resolver (yaml/resolver.py): a float needs a dot, and its exponent a sign ({@code 1.0e+3}). */
    private static final java.util.regex.Pattern PYYAML_FLOAT = java.util.regex.Pattern.compile(
            "[-+]?(?:[0-9][0-9_]*)\\.[0-9_]*(?:[eE][-+][0-9]+)?|\\.[0-9_]+(?:[eE][-+][0-9]+)?"
            + "|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\\.[0-9_]*|[-+]?\\.(?:inf|Inf|INF)|\\.(?:nan|NaN|NAN)");

    /**
     * OmegaConf's loader's float resolver (omegaconf/_utils.py {@code get_yaml_loader}, omry/omegaconf at commit
     * 0019bcaca49e23ccf30b11191964aa7ae86b55bf): PyYAML's, plus an exponent without a dot or a sign ({@code 1e3}).
     */
    private static final java.util.regex.Pattern OMEGACONF_FLOAT = java.util.regex.Pattern.compile(
            "[-+]?(?:[0-9][0-9_]*)\\.[0-9_]*(?:[eE][-+]?[0-9]+)?|[-+]?(?:[0-9][0-9_]*)(?:[eE][-+]?[0-9]+)"
            + "|\\.[0-9_]+(?:[eE][-+][0-9]+)?|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\\.[0-9_]*|[-+]?\\.(?:inf|Inf|INF)|\\.(?:nan|NaN|NAN)");

    /**
     * What a number with a dot or an exponent is to the loader, worded for the message, or null when it is neither loader's
     * float. {@code 12.8} and {@code 1.0e+3} are floats to both. {@code 1e3} (and {@code 1.5e3}, an exponent without its sign)
     * is a string to PyYAML's YAML 1.1 resolver, which Megatron-Bridge's ConfigContainer.from_yaml ({@code yaml.safe_load})
     * uses, and a float to OmegaConf's loader, which NeMo 1 and an override file's merge use: said as the file's reader
     * gets it (NeMo 2: NeMo-Run's yaml.safe_load alone, so the string). Either way no int, so the framework stops.
     */
    static String floatKind(String t, Reader r) {
        if (t.length() > 64) return null;
        boolean pyyaml = PYYAML_FLOAT.matcher(t).matches(), omega = OMEGACONF_FLOAT.matcher(t).matches();
        if (pyyaml) return "a float";
        if (!omega) return null;
        String value;
        try {
            value = String.valueOf(Double.parseDouble(t.replace("_", "")));
        } catch (NumberFormatException e) {
            value = t;
        }
        if (r == Reader.NEMO1 || r == Reader.HYPERPOD) return "the float " + value + " to OmegaConf's YAML loader (PyYAML's YAML 1.1 resolver alone reads it as a string)";
        // NeMo 2: NeMo-Run loads the recipe with yaml.safe_load alone (nemo_run/core/serialization/yaml.py), so the string
        if (r == Reader.NEMO2) return "a string to PyYAML's YAML 1.1 resolver, which NeMo-Run's yaml.safe_load uses (a float needs a dot"
                + " and a signed exponent, as 1.0e+3)";
        return "a string to PyYAML's YAML 1.1 resolver (a float needs a dot and a signed exponent, as 1.0e+3), and the float " + value
                + " where OmegaConf's loader reads the file";
    }

    /** {@code ${oc.env:VAR}} or {@code ${oc.env:VAR,default}}, the whole value: the variable and its default (null: none). */
    private static final java.util.regex.Pattern OC_ENV = java.util.regex.Pattern.compile(
            "\\$\\{oc\\.env:\\s*([A-Za-z_][A-Za-z0-9_]*)\\s*(?:,\\s*([^{}]*?))?\\s*}");

    /**
     * The kind of an OmegaConf {@code ${oc.env:VAR,default}} interpolation, which is never a number: oc.env returns the
     * variable's text, a str, and when the variable is not set its default converted with {@code str(default)} ("8", not 8),
     * None only for a null default (omegaconf/resolvers/oc/__init__.py {@code env}, omry/omegaconf at commit
     * 3f235ab861ee1126c02a8bf25fb7d62bbdde9e09; "use oc.decode to parse it"). So whatever the environment, the framework gets
     * a string (or the text itself where nothing resolves it): SYN002. A null default is None when unset, which a size
     * NULL_REFUSED cannot take but an optional one can, so there it depends on the environment: null (unknown). Wrapped in
     * {@code ${oc.decode:...}} the text is parsed as YAML: a number or not by the environment, unknown as a placeholder.
     */
    static String envString(String t, String key) {
        if (t.length() > 256) return null;
        java.util.regex.Matcher m = OC_ENV.matcher(t);
        if (!m.matches()) return null;
        String var = m.group(1), def = m.group(2);
        boolean nullDefault = def != null && def.strip().equalsIgnoreCase("null");
        if (nullDefault && !NULL_REFUSED.contains(key)) return null;
        String shown = "'" + dev.gpulint.spec.Quantities.shortText(t) + "'";
        String unset = def == null ? "a KeyError when " + var + " is not set"
                : nullDefault ? "None when " + var + " is not set"
                : "'" + dev.gpulint.spec.Quantities.shortText(unquote(def.strip())) + "', str(default), when " + var + " is not set";
        return shown + ", a string whatever the environment: OmegaConf's oc.env resolver returns " + var + "'s text as a str, and "
                + unset;
    }

    /** A default written quoted in the interpolation ({@code ${oc.env:TP,'2'}}) is the text inside the quotes. */
    private static String unquote(String d) {
        if (d.length() >= 2 && (d.startsWith("'") && d.endsWith("'") || d.startsWith("\"") && d.endsWith("\""))) return d.substring(1, d.length() - 1);
        return d;
    }

    /** The same variable parsed: {@code ${oc.decode:${oc.env:TP,2}}}, the fix an oc.env value's message offers; null otherwise. */
    private static String decoded(ScalarNode s) {
        String t = s.text().strip();
        return t.length() <= 256 && OC_ENV.matcher(t).matches() ? "${oc.decode:" + t + "}" : null;
    }

    /** Python's int() of a str: surrounding blanks, a sign, decimal digits with single underscores between them (PEP 515). */
    private static final java.util.regex.Pattern PYTHON_INT = java.util.regex.Pattern.compile("[-+]?[0-9](?:_?[0-9])*");

    /**
     * What Python's {@code int(text)} gives, as NeMo-Run's TypeParser.parse_int reads a NeMo 2 value's text ({@code '08'} is 8,
     * {@code '1_024'} 1024), or null when int() raises; beyond a long it is {@link Long#MAX_VALUE} ({@link Long#MIN_VALUE}
     * below), for DraftBounds to report.
     */
    static Long pythonInt(String text) {
        String t = text.strip();
        if (t.length() > 4096 || !PYTHON_INT.matcher(t).matches()) return null;
        java.math.BigInteger b = new java.math.BigInteger(t.replace("_", "").replaceFirst("^\\+", ""));
        if (b.bitLength() >= 64) return b.signum() < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
        return b.longValue();
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
