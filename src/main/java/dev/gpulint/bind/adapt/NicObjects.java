package dev.gpulint.bind.adapt;

import static dev.gpulint.bind.adapt.TreeValues.scalar;
import static dev.gpulint.bind.adapt.TreeValues.text;

import dev.gpulint.core.Span;
import dev.gpulint.spec.Located;
import dev.gpulint.tree.MappingNode;
import dev.gpulint.tree.ScalarNode;
import java.util.Arrays;

/**
 * What the network operators' objects and the NIC tools share: an object's kind under its API group,
 * its name and where it is written (the first key when it has none), and PFC's eight 0/1 flags, one
 * per priority (NicConfigurationTemplate qos.pfc, mlnx_qos --pfc).
 */
final class NicObjects {
    private NicObjects() {}

    /** NVIDIA's RoCE priority, which PFC protects by default (DSCP 26 lands on it). */
    static final long ROCE_PRIORITY = 3;

    /** The document is an object of {@code kind} in the API group {@code group} (any version). */
    static boolean is(MappingNode root, String group, String kind) {
        String api = text(root, "apiVersion");
        return api != null && api.startsWith(group + "/") && kind.equals(text(root, "kind"));
    }

    /** An object's name (metadata.name, else the job-style name the run gives the document) and where it is written. */
    record Named(String label, Span span) {
        Located<String> located() { return new Located<>(label, span); }
    }

    static Named name(MappingNode root, String fallback) {
        ScalarNode n = scalar(root, "metadata", "name");
        Span at = n != null ? n.span() : root.entries().isEmpty() ? root.span() : root.entries().get(0).key().span();
        return new Named(n != null && !n.isNull() ? n.text() : fallback, at);
    }

    /** PFC as eight flags state it: on or off, and the protected priority (3 when it is among them, else the lowest). */
    record Pfc(Located<Boolean> on, Located<Long> priority) {}

    /** The PFC eight 0/1 flags state, located at {@code at}; null when the text is not eight flags. */
    static Pfc pfc(String flags, Span at) {
        long[] on = priorities(flags);
        if (on == null) return null;
        if (on.length == 0) return new Pfc(new Located<>(false, at), null);
        long chosen = on[0];
        for (long p : on) if (p == ROCE_PRIORITY) chosen = p;
        return new Pfc(new Located<>(true, at), new Located<>(chosen, at));
    }

    /** The priorities a pfc string of eight 0/1 flags enables ("0,0,0,1,0,0,0,0" → [3]); null when it is not eight flags. */
    static long[] priorities(String flags) {
        String t = flags.strip();
        if (t.length() > 64) return null;
        String[] parts = t.split(",", -1);
        if (parts.length != 8) return null;
        long[] on = new long[8];
        int n = 0;
        for (int i = 0; i < 8; i++) {
            String p = parts[i].strip();
            if (p.equals("1")) on[n++] = i;
            else if (!p.equals("0")) return null;
        }
        return Arrays.copyOf(on, n);
    }
}
