package dev.gpulint.read.evidence;

import dev.gpulint.core.Span;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * ibstat ("CA 'mlx5_0'", then per port "Port 1:" and indented "State: Active", "Physical state:
 * LinkUp", "Rate: 400", "Link layer: InfiniBand") and ibv_devinfo ("hca_id: mlx5_0", then per port
 * "port: 1" and "state: PORT_ACTIVE (4)", "phys_state: LINK_UP (5)" (with -v), "active_width: 4X
 * (2)", "active_speed: 100.0 Gbps (128)" (with -v), "link_layer: InfiniBand"). The rate of an
 * ibv_devinfo port is its width times its lane speed, when both are printed. ibstatus ("Infiniband device 'mlx5_0' port 1
 * status:", then "state: 4: ACTIVE", "phys state: 5: LinkUp", "rate: 400 Gb/sec (4X NDR)", "link_layer: InfiniBand") is
 * read alike: a state is the name after its number (ACTIVE, INIT, LinkUp), where it is printed. Lines of other tools
 * (a shell prompt, "ibpanic: ...") and redacted values ("Node GUID: ...") are passed over.
 */
final class IbReader {
    /** Ports read: a node has tens at most. */
    static final int MAX_PORTS = 4096;
    private static final Pattern CA = Pattern.compile("^\\s*CA '([^']{1,64})'");
    private static final Pattern HCA = Pattern.compile("^\\s*hca_id:\\s*(\\S{1,64})");
    static final Pattern IBSTATUS = Pattern.compile("^\\s*Infiniband device '([^']{1,64})' port (\\d{1,3}) status:");
    /** ibstatus's "4: ACTIVE", "5: LinkUp": the number, then the name. */
    private static final Pattern NUMBERED = Pattern.compile("^\\d{1,2}:\\s*(\\S.{0,40})$");
    /**
     * A "Key: value" line. Indented as the tools print it, or not at all: a capture pasted into an issue or
     * a terminal log often loses its indentation, and the keys still say what each line is.
     */
    private static final Pattern KEY = Pattern.compile("^\\s*([A-Za-z_][A-Za-z0-9_ ]{0,40}):\\s*(.*?)\\s*$");
    private static final Pattern WIDTH = Pattern.compile("^(\\d{1,2})X");
    private static final Pattern SPEED = Pattern.compile("^([0-9.]{1,8})\\s*Gbps");

    private IbReader() {}

    static Evidence.IbPorts read(String file, List<String> lines, Evidence.Kind kind) {
        if (kind == Evidence.Kind.IBSTATUS) return ibstatus(file, lines);
        boolean ibstat = kind == Evidence.Kind.IBSTAT;
        List<Evidence.IbPort> ports = new ArrayList<>();
        String adapter = null;
        Port cur = null;
        for (int i = 0; i < lines.size(); i++) {
            String l = lines.get(i);
            int ln = i + 1;
            Matcher a = (ibstat ? CA : HCA).matcher(l);
            if (a.find()) {
                if (cur != null) ports.add(cur.done());
                cur = null;
                adapter = a.group(1);
                continue;
            }
            Matcher k = KEY.matcher(l);
            if (adapter == null || !k.matches()) continue;
            String key = k.group(1).strip(), value = k.group(2);
            Span vs = Text.span(file, ln, l.indexOf(value, l.indexOf(':')) + 1, value.length());
            if (ibstat ? key.matches("Port \\d{1,3}") && value.isEmpty() : key.equals("port")) {
                if (cur != null) ports.add(cur.done());
                if (ports.size() >= MAX_PORTS) throw new Unreadable(Text.span(file, ln, 1, 0), "more than " + MAX_PORTS + " ports");
                int n = (int) Text.whole(ibstat ? key.substring(5) : value, -1);
                cur = new Port(adapter, n, Text.lineSpan(file, ln, l));
                continue;
            }
            if (cur == null) continue;
            switch (ibstat ? key : key.toLowerCase(java.util.Locale.ROOT)) {
                case "State", "state" -> cur.state = new Evidence.Word(value, vs);
                case "Physical state", "phys_state" -> cur.phys = new Evidence.Word(value, vs);
                case "Link layer", "link_layer" -> cur.layer = new Evidence.Word(value, vs);
                case "Rate" -> { cur.rate = Text.number(value, -1); cur.rateSpan = vs; }
                case "active_width" -> {
                    Matcher w = WIDTH.matcher(value);
                    if (w.find()) cur.width = Integer.parseInt(w.group(1));
                    cur.rateSpan = cur.rateSpan == null ? vs : cur.rateSpan;
                }
                case "active_speed" -> {
                    Matcher s = SPEED.matcher(value);
                    if (s.find()) cur.lane = Text.number(s.group(1), -1);
                    cur.rateSpan = vs;
                }
                default -> { }
            }
        }
        if (cur != null) ports.add(cur.done());
        return new Evidence.IbPorts(file, kind, List.copyOf(ports));
    }

    private static Evidence.IbPorts ibstatus(String file, List<String> lines) {
        List<Evidence.IbPort> ports = new ArrayList<>();
        Port cur = null;
        for (int i = 0; i < lines.size(); i++) {
            String l = lines.get(i);
            int ln = i + 1;
            Matcher d = IBSTATUS.matcher(l);
            if (d.find()) {
                if (cur != null) ports.add(cur.done());
                if (ports.size() >= MAX_PORTS) throw new Unreadable(Text.span(file, ln, 1, 0), "more than " + MAX_PORTS + " ports");
                cur = new Port(d.group(1), Integer.parseInt(d.group(2)), Text.lineSpan(file, ln, l));
                continue;
            }
            Matcher k = KEY.matcher(l);
            if (cur == null || !k.matches()) continue;
            String key = k.group(1).strip(), value = k.group(2);
            int at = l.indexOf(value, l.indexOf(':')) + 1;
            Matcher n = NUMBERED.matcher(value);
            if (n.matches() && (key.equals("state") || key.equals("phys state"))) {
                at += n.start(1);
                value = n.group(1);
            }
            Span vs = Text.span(file, ln, at, value.length());
            switch (key) {
                case "state" -> cur.state = new Evidence.Word(value, vs);
                case "phys state" -> cur.phys = new Evidence.Word(value, vs);
                case "link_layer" -> cur.layer = new Evidence.Word(value, vs);
                case "rate" -> {
                    Matcher r = SPEED_SEC.matcher(value);
                    if (r.find()) {
                        cur.rate = Text.number(r.group(1), -1);
                        cur.rateSpan = Text.span(file, ln, at, r.group(1).length());
                    }
                }
                default -> { }
            }
        }
        if (cur != null) ports.add(cur.done());
        return new Evidence.IbPorts(file, Evidence.Kind.IBSTATUS, List.copyOf(ports));
    }

    private static final Pattern SPEED_SEC = Pattern.compile("^([0-9.]{1,8})\\s*Gb/sec");

    private static final class Port {
        final String adapter;
        final int port;
        final Span span;
        Evidence.Word state, phys, layer;
        double rate = -1, lane = -1;
        int width = -1;
        Span rateSpan;

        Port(String adapter, int port, Span span) {
            this.adapter = adapter;
            this.port = port;
            this.span = span;
        }

        Evidence.IbPort done() {
            double r = rate >= 0 ? rate : (width > 0 && lane > 0 ? width * lane : -1);
            return new Evidence.IbPort(adapter, port, span, state, phys, r, r < 0 ? null : rateSpan, layer);
        }
    }
}
