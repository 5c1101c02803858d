package dev.gpulint.bind.adapt;

import dev.gpulint.bind.adapt.shell.Launchers;
import dev.gpulint.bind.adapt.shell.Shell;
import dev.gpulint.bind.adapt.shell.Shell.Word;
import dev.gpulint.core.Span;
import dev.gpulint.spec.Located;
import dev.gpulint.spec.Specs;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code mlnx_qos} lines of a script (MLNX_OFED / DOCA's tool that sets a ConnectX port's QoS):
 * {@code -f}/{@code --pfc} LIST (eight 0/1 flags, priorities 0 to 7), {@code --trust pcp|dscp}, and
 * {@code --dscp2prio set,DSCP,PRIO} (also {@code del,DSCP,PRIO} and {@code flush}), each as
 * {@code --opt VALUE}, {@code --opt=VALUE} or {@code -fVALUE}, for the port {@code -i}/{@code --interface}.
 * The scan follows no control flow, so two lines that give a port different values (an if/else, case
 * branches) leave that setting unknown, as do ports whose settings differ; a line is read only where
 * mlnx_qos is the command run (not an argument of echo). The script's settings bind as a RoCE fabric with no node groups, named after the
 * script: PFC is enabled on the priorities the flags set, the trust state and the DSCP map are the
 * NICs', and a setting the script leaves out is unknown (not absent: it may be set elsewhere).
 */
final class MlnxQos {
    private MlnxQos() {}

    /** What the script's fabric is called in messages. */
    static final String ORIGIN = "mlnx_qos lines";

    /** mlnx_qos's options that take a value, besides the three read here and -i. */
    private static final List<String> VALUED = List.of("-p", "--prio_tc", "-s", "--tsa", "-t", "--tcbw", "-r", "--ratelimit",
            "-d", "--dcbx", "--defltprio", "--cable_len", "--prio2buffer", "--buffer_size");

    /** One port's settings as the script leaves them; a setting two lines give different values is unknown (either may run last). */
    private static final class Port {
        Word pfc, trust;
        boolean pfcUnknown, trustUnknown;
        final List<Word> dscp2prio = new ArrayList<>();
        boolean flushed;
    }

    /** Programs that run the command after them (their own options and arguments come first). */
    private static final java.util.Set<String> WRAPPERS = java.util.Set.of("sudo", "srun", "ssh", "xargs", "env", "timeout",
            "pdsh", "clush", "nohup", "command", "exec", "time", "mpirun");
    /** Programs whose arguments are text, never a command run. */
    private static final java.util.Set<String> TEXT = java.util.Set.of("echo", "printf", "cat", "grep", "logger", "tee", "sed", "awk");

    /** Where mlnx_qos is the command run: the command word, or after wrappers such as sudo or srun; -1 when it is not run. */
    static int commandAt(List<Word> w) {
        for (int i = 0; i < w.size(); i++) {
            Word x = w.get(i);
            if (!x.known()) return -1;
            String prog = Shell.program(x.text());
            if (prog.equals("mlnx_qos")) return i == 0 || WRAPPERS.contains(Shell.program(w.get(0).text())) ? i : -1;
            if (i == 0 && !WRAPPERS.contains(prog)) return -1;
            if (TEXT.contains(prog)) return -1;
        }
        return -1;
    }

    /** The fabric the script's mlnx_qos lines set, as a cluster named {@code name}; null when they set none of it. */
    static Specs.Cluster read(Shell.Script script, String file, String name, Span nameSpan, Span whole) {
        Map<String, Port> ports = new LinkedHashMap<>();
        Word first = null;
        int lineNo = 0;
        for (Shell.Command c : script.commands()) {
            List<Word> w = c.words();
            int at = commandAt(w);
            if (at >= 0 && line(w, at + 1, ports, lineNo++) && first == null) first = w.get(at);
        }
        if (first == null) return null;
        // a setting binds when every port that sets it sets it alike
        Located<Boolean> pfcOn = null;
        Located<Long> pfcPriority = null;
        Located<String> trust = null;
        List<Integer> map = null;
        Span mapSpan = null;
        boolean pfcMixed = false, trustMixed = false, mapMixed = false, mapSeen = false;
        String pfcText = null, trustText = null;
        for (Port p : ports.values()) {
            if (p.pfc != null) {
                String t = p.pfc.known() && !p.pfcUnknown ? p.pfc.text().strip() : "?";
                if (pfcText == null) pfcText = t; else if (!pfcText.equals(t)) pfcMixed = true;
            }
            if (p.trust != null) {
                String t = p.trust.known() && !p.trustUnknown ? p.trust.text().strip().toLowerCase(Locale.ROOT) : "?";
                if (trustText == null) trustText = t; else if (!trustText.equals(t)) trustMixed = true;
            }
            if (!p.dscp2prio.isEmpty() || p.flushed) {
                List<Integer> m = dscpMap(p);
                if (!mapSeen) { map = m; mapSpan = p.dscp2prio.isEmpty() ? null : p.dscp2prio.get(0).span(); mapSeen = true; }
                else if (!m.equals(map)) mapMixed = true;
            }
        }
        Word pfcWord = firstOf(ports, true);
        if (pfcText != null && !pfcMixed && !pfcText.equals("?")) {
            NicObjects.Pfc flags = NicObjects.pfc(pfcText, pfcWord.span());
            if (flags != null) { pfcOn = flags.on(); pfcPriority = flags.priority(); }
        }
        Word trustWord = firstOf(ports, false);
        if (trustText != null && !trustMixed && (trustText.equals("dscp") || trustText.equals("pcp"))) {
            trust = new Located<>(trustText, trustWord.span());
        }
        if (mapMixed) map = unknownMap();
        if (pfcOn == null && trust == null && map == null) return null;
        boolean chosen = false;                            // a set,D,P onto the PFC priority
        for (Port p : ports.values()) {
            for (Word e : p.dscp2prio) {
                String[] parts = e.text().strip().split(",", -1);
                chosen |= pfcPriority != null && e.known() && parts.length == 3 && parts[0].equals("set")
                        && parts[2].equals(String.valueOf(pfcPriority.value()));
            }
        }
        Specs.NicQos qos = new Specs.NicQos(trust, map, mapSpan, "mlnx_qos --pfc", true, chosen);
        Specs.Fabric f = new Specs.Fabric(new Located<>("roce", first.span()), null, null, pfcOn, pfcPriority, null, null, null,
                first.span(), qos);
        return new Specs.Cluster(new Located<>(name, nameSpan), file, f, List.of(), whole, ORIGIN);
    }

    /**
     * Reads one mlnx_qos command's options from {@code i}; whether it sets anything read here. A line with
     * both --trust and --dscp2prio is one the tool rejects ("cannot be used at the same time"): ignored.
     * An interface not known is a port of its own, one per line ({@code $dev} of two loops are not one port).
     */
    private static boolean line(List<Word> w, int i, Map<String, Port> ports, int lineNo) {
        Word iface = null, pfc = null, trust = null;
        List<Word> map = new ArrayList<>();
        for (; i < w.size(); i++) {
            Opt o;
            if ((o = option(w, i, "-i", "--interface")) != null) iface = o.value();
            else if ((o = option(w, i, "-f", "--pfc")) != null) pfc = o.value();
            else if ((o = option(w, i, null, "--trust")) != null) trust = o.value();
            else if ((o = option(w, i, null, "--dscp2prio")) != null) map.add(o.value());
            else if (VALUED.contains(w.get(i).text())) { i++; continue; }
            else continue;
            if (o.next()) i++;
        }
        if (pfc == null && trust == null && map.isEmpty() || trust != null && !map.isEmpty()) return false;
        String key = iface == null ? "" : iface.known() ? iface.text() : "$" + lineNo + " " + iface.text();
        Port p = ports.computeIfAbsent(key, k -> new Port());
        if (pfc != null) {
            p.pfcUnknown |= p.pfc != null && !same(p.pfc, pfc);
            p.pfc = pfc;
        }
        if (trust != null) {
            p.trustUnknown |= p.trust != null && !same(p.trust, trust);
            p.trust = trust;
        }
        for (Word m : map) {
            if (m.known() && m.text().strip().equals("flush")) {
                p.dscp2prio.clear();
                p.flushed = true;
                p.trustUnknown = true;            // after a flush the tool's trust state is not what the script set
                if (p.trust == null) p.trust = m;
            } else p.dscp2prio.add(m);
        }
        return true;
    }

    private static boolean same(Word a, Word b) {
        return a.known() && b.known() && a.text().strip().equalsIgnoreCase(b.text().strip());
    }

    /** An option's value, and whether it is the next word. */
    private record Opt(Word value, boolean next) {}

    /** Option {@code shortName}/{@code longName} at {@code i}: -f VALUE, -fVALUE, --pfc VALUE, --pfc=VALUE; null when it is another word. */
    private static Opt option(List<Word> w, int i, String shortName, String longName) {
        String t = w.get(i).text();
        if (t.equals(longName) || t.equals(shortName)) return i + 1 < w.size() ? new Opt(w.get(i + 1), true) : null;
        if (t.startsWith(longName + "=")) return new Opt(Launchers.valueOf(w.get(i), longName.length() + 1), false);
        if (shortName != null && t.startsWith(shortName) && !t.startsWith("--") && t.length() > shortName.length()) {
            return new Opt(Launchers.valueOf(w.get(i), shortName.length()), false);
        }
        return null;
    }

    /**
     * A port's DSCP-to-priority map after its --dscp2prio entries: the usual DSCP >> 3, with each
     * {@code set,D,P} applied; a {@code del}, a {@code flush}, or an entry not read makes the map unknown
     * (the tool's del and flush behave differently by driver interface).
     */
    private static List<Integer> dscpMap(Port p) {
        if (p.flushed) return unknownMap();
        Integer[] m = new Integer[64];
        for (int d = 0; d < 64; d++) m[d] = d >> 3;
        for (Word e : p.dscp2prio) {
            String[] parts = e.known() ? e.text().strip().split(",", -1) : new String[0];
            if (parts.length != 3 || !parts[0].equals("set") || !parts[1].matches("[0-9]{1,2}") || !parts[2].matches("[0-7]")) {
                return unknownMap();
            }
            int dscp = Integer.parseInt(parts[1]);
            if (dscp > 63) return unknownMap();
            m[dscp] = Integer.parseInt(parts[2]);
        }
        return List.of(m);
    }

    private static List<Integer> unknownMap() {
        Integer[] m = new Integer[64];
        Arrays.fill(m, -1);
        return List.of(m);
    }

    /** The first port's --pfc (or --trust) word: where the binding points. */
    private static Word firstOf(Map<String, Port> ports, boolean pfc) {
        for (Port p : ports.values()) {
            Word w = pfc ? p.pfc : p.trust;
            if (w != null) return w;
        }
        return null;
    }
}
