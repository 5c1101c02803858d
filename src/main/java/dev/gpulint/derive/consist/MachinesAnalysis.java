package dev.gpulint.derive.consist;

import dev.gpulint.core.Span;
import dev.gpulint.derive.Facts;
import dev.gpulint.derive.Resolved;
import dev.gpulint.facts.AddressKind;
import dev.gpulint.facts.MachinesFact;
import dev.gpulint.spec.Specs;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The machines of a launch configuration that states them with its process total and the main
 * process's address (Hugging Face accelerate): the counts, the address classified, and the GPUs
 * per node of the node group the job runs on.
 */
public final class MachinesAnalysis {
    /** The format name of the accelerate adapter (bind.adapt.AccelerateAdapter.FORMAT). */
    public static final String ACCELERATE = "accelerate";
    private static final Pattern NUMBER = Pattern.compile("[0-9]{1,32}");

    private MachinesAnalysis() {}

    public static void job(Resolved.Job r, Facts out) {
        Specs.Job j = r.spec();
        if (j.origin() == null || !ACCELERATE.equals(j.origin().format())) return;
        Specs.Stated machines = null, processes = null, address = null;
        for (Specs.Stated s : j.origin().stated()) {
            if (s.kind() != Specs.StatedKind.CONFIG) continue;
            if (s.quantity().equals("nodes") && machines == null) machines = s;
            else if (s.quantity().equals("world") && processes == null) processes = s;
            else if (s.quantity().equals("main_process_ip") && address == null) address = s;
        }
        long groupGpus = -1;
        String groupName = null;
        Span groupSpan = null;
        Resolved.Group g = r.group();
        if (g != null && g.spec().gpu() != null && g.spec().gpu().count() != null) {
            groupGpus = g.spec().gpu().count().value();
            groupName = g.name();
            groupSpan = g.spec().gpu().count().span();
        }
        out.add(new MachinesFact(r.name(), j.origin().format(),
                machines == null ? -1 : machines.number(), machines == null ? null : machines.span(), machines == null ? null : machines.where(),
                processes == null ? -1 : processes.number(), processes == null ? null : processes.span(),
                processes == null ? null : processes.where(),
                address == null ? null : address.value(), address == null ? null : address.span(),
                address == null ? AddressKind.NONE : kind(address.value()), groupGpus, groupName, groupSpan));
    }

    /** LOOPBACK, UNSPECIFIED, NUMBER or HOST: what an address as written is. */
    static AddressKind kind(String written) {
        String a = written.strip().toLowerCase(Locale.ROOT);
        if (a.startsWith("[") && a.endsWith("]")) a = a.substring(1, a.length() - 1);
        if (a.equals("localhost") || a.endsWith(".localhost") || a.equals("::1") || a.equals("0:0:0:0:0:0:0:1")) return AddressKind.LOOPBACK;
        if (a.equals("0.0.0.0") || a.equals("::") || a.equals("0:0:0:0:0:0:0:0")) return AddressKind.UNSPECIFIED;
        String[] parts = a.split("\\.", -1);
        if (parts.length == 4 && parts[0].equals("127")) {
            boolean octets = true;
            for (String p : parts) octets &= NUMBER.matcher(p).matches() && p.length() <= 3 && Integer.parseInt(p) <= 255;
            if (octets) return AddressKind.LOOPBACK;
        }
        if (NUMBER.matcher(a).matches()) return AddressKind.NUMBER;
        return AddressKind.HOST;
    }
}
