package dev.gpulint.read.evidence;

import dev.gpulint.core.Span;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * GPU telemetry sampled over time, into {@link Evidence.GpuSamples} (docs/evidence.md, "GPU telemetry"):
 * <ul>
 * <li>{@code nvidia-smi dmon}: a header {@code # gpu   pwr  gtemp  mtemp     sm    mem ...} (any {@code -s} selection,
 * with {@code -o D}/{@code -o T} a {@code Date}/{@code Time} column first), the units line {@code # Idx     W     C ...},
 * then one row per GPU per sample ({@code -} where a value is not supported). A sample's time comes from the Time
 * (and Date) column, else from the captured command's {@code -d N} (1 s when the command is captured without it),
 * else it is unknown.</li>
 * <li>{@code nvidia-smi --query-gpu=... --format=csv}: the header names the fields ({@code index, utilization.gpu [%],
 * clocks.sm [MHz]}; without units with {@code nounits}); with {@code noheader} the fields come from the captured
 * command line. Values lose their units ({@code 87 %}); {@code [N/A]} and {@code [Not Supported]} are not values.
 * The {@code timestamp} field (2024/05/14 10:21:33.123) gives the time.</li>
 * <li>dcgm-exporter scrapes in Prometheus text format ({@code DCGM_FI_DEV_GPU_UTIL{gpu="0",UUID="...",Hostname="n1"} 87}).
 * Several scrapes in one file are told apart by a time line before each (the output of {@code date}, an ISO-8601
 * time, or {@code date +%s}), or by the same GPU's metric coming again; a sample's time is the Prometheus timestamp
 * (milliseconds) after its value when the exporter wrote one, else the last time line's.</li>
 * </ul>
 * Gauges and counters keep their meaning: DCGM's profiling byte fields ({@code DCGM_FI_PROF_PCIE_TX_BYTES},
 * {@code DCGM_FI_PROF_NVLINK_TX_BYTES} ...) are rates in bytes per second by DCGM's field definition (whatever
 * {@code # TYPE} an exporter's counter list gave them), so they read as {@code ..._bytes_per_s}; running totals
 * (error and replay counters, energy) read as {@code ..._total}, and a rate from them needs two samples and the
 * time between them. {@code DCGM_FI_DEV_XID_ERRORS} is the last XID seen ({@code xid_last}), not a count, and
 * {@code DCGM_EXP_XID_ERRORS_COUNT} counts the XIDs of the exporter's window ({@code xid_errors_in_window}, summed over
 * its {@code xid} series). dmon's {@code tviol} is a flag (0 or 1), read as {@code thermal_violation_flag}.
 */
final class TelemetryReader {
    /** Samples read from one capture: a day of 1 s samples of 8 GPUs is 691,200 rows, past the file size read. */
    static final int MAX_SAMPLES = 500_000;

    private static final Pattern DMON_HEADER = Pattern.compile("^\\s*#\\s*((?:Date\\s+)?(?:Time\\s+)?)gpu\\s+([a-z0-9]{2,8}\\b.*)$");
    private static final Pattern DMON_UNITS = Pattern.compile("^\\s*#\\s*(?:YYYYMMDD\\s+)?(?:HH:MM:SS\\s+)?Idx\\b.*$");
    private static final Pattern DMON_INTERVAL = Pattern.compile("\\s-d\\s*(\\d{1,5})\\b");
    private static final Pattern CSV_FIELD = Pattern.compile("^[a-z_]{2,40}(?:\\.[a-z_]{2,40}){0,4}(?:\\s*\\[[^\\]]{1,24}\\])?$");
    private static final Pattern QUERY = Pattern.compile("--query-gpu[= ]([A-Za-z0-9_.,]{1,2000})");
    private static final Pattern SMI_TIME = Pattern.compile("^(\\d{4})/(\\d{2})/(\\d{2}) (\\d{2}):(\\d{2}):(\\d{2})(?:\\.(\\d{1,3}))?$");
    private static final Pattern METRIC = Pattern.compile("^(DCGM_[A-Z0-9_]{1,120})(\\{[^}]{0,2000}\\})?\\s+(\\S{1,40})(?:\\s+(-?\\d{1,16}))?\\s*$");
    /** A sample line's start: the metric's name, then its labels or its value. */
    private static final Pattern SAMPLE_START = Pattern.compile("^DCGM_[A-Z0-9_]{1,120}[{ \\t]");
    private static final Pattern LABEL = Pattern.compile("([A-Za-z_][A-Za-z0-9_]{0,80})=\"((?:[^\"\\\\]|\\\\.){0,500})\"");
    private static final Pattern DATE = Pattern.compile("^\\s*[A-Z][a-z]{2}\\s+([A-Z][a-z]{2})\\s+(\\d{1,2})\\s+(\\d{2}):(\\d{2}):(\\d{2})(?:\\s+[A-Z]{1,5})?\\s+(\\d{4})\\s*$");
    private static final Pattern ISO = Pattern.compile("^\\s*(?:#\\s*)?(\\d{4})-(\\d{2})-(\\d{2})[T ](\\d{2}):(\\d{2}):(\\d{2})(?:\\.\\d{1,9})?(?:Z|[+-]\\d{2}:?\\d{2})?\\s*$");
    private static final Pattern EPOCH = Pattern.compile("^\\s*(1\\d{9})\\s*$");
    private static final List<String> MONTHS = List.of("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec");

    /** dmon's columns by name, and the keys they read into. */
    private static final Map<String, String> DMON = Map.ofEntries(Map.entry("pwr", "power_w"), Map.entry("gtemp", "temp_c"),
            Map.entry("mtemp", "mem_temp_c"), Map.entry("sm", "gpu_util_percent"), Map.entry("mem", "mem_util_percent"),
            Map.entry("enc", "enc_util_percent"), Map.entry("dec", "dec_util_percent"), Map.entry("mclk", "mem_clock_mhz"),
            Map.entry("pclk", "sm_clock_mhz"), Map.entry("pviol", "power_violation_percent"),
            Map.entry("tviol", "thermal_violation_flag"), Map.entry("fb", "memory_used_mib"), Map.entry("bar1", "bar1_used_mib"),
            Map.entry("rxpci", "pcie_rx_mb_per_s"), Map.entry("txpci", "pcie_tx_mb_per_s"));

    /** nvidia-smi --query-gpu fields (and their aliases), and the keys they read into. */
    private static final Map<String, String> QUERY_FIELDS = Map.ofEntries(Map.entry("utilization.gpu", "gpu_util_percent"),
            Map.entry("utilization.memory", "mem_util_percent"), Map.entry("clocks.sm", "sm_clock_mhz"),
            Map.entry("clocks.current.sm", "sm_clock_mhz"), Map.entry("clocks.gr", "graphics_clock_mhz"),
            Map.entry("clocks.current.graphics", "graphics_clock_mhz"), Map.entry("clocks.mem", "mem_clock_mhz"),
            Map.entry("clocks.current.memory", "mem_clock_mhz"), Map.entry("clocks.max.sm", "sm_clock_max_mhz"),
            Map.entry("clocks.max.mem", "mem_clock_max_mhz"), Map.entry("clocks.max.memory", "mem_clock_max_mhz"),
            Map.entry("power.draw", "power_w"), Map.entry("power.draw.instant", "power_w"), Map.entry("power.draw.average", "power_w"),
            Map.entry("power.limit", "power_limit_w"), Map.entry("enforced.power.limit", "power_limit_w"),
            Map.entry("temperature.gpu", "temp_c"), Map.entry("temperature.memory", "mem_temp_c"),
            Map.entry("memory.used", "memory_used_mib"), Map.entry("memory.total", "memory_total_mib"),
            Map.entry("memory.free", "memory_free_mib"), Map.entry("pcie.link.gen.current", "pcie_gen"),
            Map.entry("pcie.link.width.current", "pcie_width"), Map.entry("fan.speed", "fan_percent"));

    /** dcgm-exporter's fields, and the keys they read into (a rate or gauge, or a running total ending in _total). */
    private static final Map<String, String> DCGM = Map.ofEntries(Map.entry("DCGM_FI_DEV_GPU_UTIL", "gpu_util_percent"),
            Map.entry("DCGM_FI_DEV_MEM_COPY_UTIL", "mem_util_percent"), Map.entry("DCGM_FI_PROF_SM_ACTIVE", "sm_active_fraction"),
            Map.entry("DCGM_FI_PROF_SM_OCCUPANCY", "sm_occupancy_fraction"),
            Map.entry("DCGM_FI_PROF_GR_ENGINE_ACTIVE", "gr_engine_active_fraction"),
            Map.entry("DCGM_FI_PROF_PIPE_TENSOR_ACTIVE", "tensor_active_fraction"),
            Map.entry("DCGM_FI_PROF_DRAM_ACTIVE", "dram_active_fraction"), Map.entry("DCGM_FI_DEV_SM_CLOCK", "sm_clock_mhz"),
            Map.entry("DCGM_FI_DEV_MEM_CLOCK", "mem_clock_mhz"), Map.entry("DCGM_FI_DEV_POWER_USAGE", "power_w"),
            Map.entry("DCGM_FI_DEV_POWER_MGMT_LIMIT", "power_limit_w"), Map.entry("DCGM_FI_DEV_GPU_TEMP", "temp_c"),
            Map.entry("DCGM_FI_DEV_MEMORY_TEMP", "mem_temp_c"), Map.entry("DCGM_FI_DEV_FB_USED", "memory_used_mib"),
            Map.entry("DCGM_FI_DEV_FB_FREE", "memory_free_mib"), Map.entry("DCGM_FI_PROF_PCIE_TX_BYTES", "pcie_tx_bytes_per_s"),
            Map.entry("DCGM_FI_PROF_PCIE_RX_BYTES", "pcie_rx_bytes_per_s"),
            Map.entry("DCGM_FI_PROF_NVLINK_TX_BYTES", "nvlink_tx_bytes_per_s"),
            Map.entry("DCGM_FI_PROF_NVLINK_RX_BYTES", "nvlink_rx_bytes_per_s"), Map.entry("DCGM_FI_DEV_XID_ERRORS", "xid_last"),
            Map.entry("DCGM_EXP_XID_ERRORS_COUNT", "xid_errors_in_window"),
            Map.entry("DCGM_FI_DEV_PCIE_REPLAY_COUNTER", "pcie_replay_total"),
            Map.entry("DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION", "energy_mj_total"),
            Map.entry("DCGM_FI_DEV_NVLINK_CRC_FLIT_ERROR_COUNT_TOTAL", "nvlink_crc_flit_errors_total"),
            Map.entry("DCGM_FI_DEV_NVLINK_CRC_DATA_ERROR_COUNT_TOTAL", "nvlink_crc_data_errors_total"),
            Map.entry("DCGM_FI_DEV_NVLINK_REPLAY_ERROR_COUNT_TOTAL", "nvlink_replay_errors_total"),
            Map.entry("DCGM_FI_DEV_NVLINK_RECOVERY_ERROR_COUNT_TOTAL", "nvlink_recovery_errors_total"));

    private TelemetryReader() {}

    /** The kind of telemetry whose first line this is, or null. */
    static Evidence.Kind startsAt(List<String> lines, int i) {
        String l = lines.get(i);
        if (l.contains("gpu") && l.contains("#") && DMON_HEADER.matcher(l).matches() && i + 1 < lines.size()
                && DMON_UNITS.matcher(lines.get(i + 1)).matches()) return Evidence.Kind.SMI_DMON;
        if (l.contains("--query-gpu") && l.contains("--format") && l.contains("csv") && QUERY.matcher(l).find()) return Evidence.Kind.SMI_CSV;
        if (l.contains(",") && l.contains(".") && csvHeader(l) != null) return Evidence.Kind.SMI_CSV;
        if (l.contains("DCGM_")) {
            String t = l.strip();
            if (SAMPLE_START.matcher(t).find() || t.startsWith("# HELP DCGM_") || t.startsWith("# TYPE DCGM_")) return Evidence.Kind.DCGM_METRICS;
        }
        return null;
    }

    /**
     * The fields a --query-gpu CSV header names, or null when the line is none: at least two comma-separated field
     * names, one of them a field gpulint reads.
     */
    static List<String> csvHeader(String l) {
        String[] parts = l.strip().split("\\s*,\\s*", -1);
        if (parts.length < 2) return null;
        List<String> out = new ArrayList<>();
        boolean known = false;
        for (String p : parts) {
            if (!CSV_FIELD.matcher(p).matches()) return null;
            String name = fieldName(p);
            known |= QUERY_FIELDS.containsKey(name);
            out.add(name);
        }
        return known ? out : null;
    }

    private static String fieldName(String headerCell) {
        int b = headerCell.indexOf('[');
        return (b < 0 ? headerCell : headerCell.substring(0, b)).strip().toLowerCase(Locale.ROOT);
    }

    // ---------------------------------------------------------------- dmon

    static Evidence.GpuSamples dmon(String file, List<String> lines) {
        return dmon(file, lines, MAX_SAMPLES);
    }

    /** The same, with at most {@code max} samples (a test's small bound). */
    static Evidence.GpuSamples dmon(String file, List<String> lines, int max) {
        List<String> columns = null;
        double interval = -1;
        List<Evidence.GpuSample> out = new ArrayList<>();
        int sample = -1, lastGpu = Integer.MAX_VALUE;
        double t0 = Double.NaN;
        for (int i = 0; i < lines.size(); i++) {
            String l = lines.get(i);
            if (l.contains("dmon")) {
                Matcher d = DMON_INTERVAL.matcher(l);
                interval = d.find() ? Integer.parseInt(d.group(1)) : 1;
                continue;
            }
            Matcher h = DMON_HEADER.matcher(l);
            if (h.matches()) {
                columns = new ArrayList<>();
                for (Text.Token t : Text.tokens(l.substring(l.indexOf('#') + 1))) columns.add(t.text().toLowerCase(Locale.ROOT));
                continue;
            }
            List<Text.Token> tokens = Text.tokens(l);
            if (columns == null || tokens.isEmpty() || !Character.isDigit(tokens.get(0).text().charAt(0))) continue;
            if (tokens.size() != columns.size()) {
                throw new Unreadable(Text.lineSpan(file, i + 1, l), "the row has " + tokens.size() + " values where the header names "
                        + columns.size() + " columns (" + String.join(" ", columns) + ")");
            }
            Map<String, Double> values = new LinkedHashMap<>();
            int gpu = -1;
            String date = null, time = null;
            for (int c = 0; c < columns.size(); c++) {
                String col = columns.get(c), v = tokens.get(c).text();
                switch (col) {
                    case "date" -> date = v;
                    case "time" -> time = v;
                    case "gpu" -> gpu = (int) Text.whole(v, -1);
                    default -> {
                        String key = DMON.get(col);
                        double d = Text.number(v, Double.NaN);
                        if (key != null && !Double.isNaN(d)) values.put(key, d);
                    }
                }
            }
            if (gpu < 0) throw new Unreadable(Text.lineSpan(file, i + 1, l), "the gpu column holds '" + tokens.get(columns.indexOf("gpu")).text()
                    + "', not a GPU index");
            if (gpu <= lastGpu) sample++;
            lastGpu = gpu;
            double at = clock(date, time);
            if (!Double.isNaN(at) && Double.isNaN(t0)) t0 = at;
            double seconds = !Double.isNaN(at) ? at - t0 : interval > 0 ? sample * interval : -1;
            add(out, max, file, i, new Evidence.GpuSample("", gpu, seconds, values, Text.lineSpan(file, i + 1, l)));
        }
        return new Evidence.GpuSamples(file, Evidence.Kind.SMI_DMON, List.copyOf(out));
    }

    /** dmon's -o DT columns (20240514, 10:21:33) as seconds, NaN without a time. */
    private static double clock(String date, String time) {
        if (time == null) return Double.NaN;
        String[] hms = time.split(":");
        if (hms.length != 3) return Double.NaN;
        double s = Text.whole(hms[0], 0) * 3600 + Text.whole(hms[1], 0) * 60 + Text.whole(hms[2], 0);
        if (date != null && date.length() == 8) {
            try {
                s += LocalDate.of(Integer.parseInt(date.substring(0, 4)), Integer.parseInt(date.substring(4, 6)),
                        Integer.parseInt(date.substring(6))).toEpochDay() * 86400.0;
            } catch (RuntimeException e) {
                return Double.NaN;
            }
        }
        return s;
    }

    private static void add(List<Evidence.GpuSample> out, int max, String file, int i, Evidence.GpuSample s) {
        if (out.size() >= max) throw new Unreadable(Text.span(file, i + 1, 1, 0), "more than " + max + " samples");
        out.add(s);
    }

    // ---------------------------------------------------------------- --query-gpu CSV

    static Evidence.GpuSamples csv(String file, List<String> lines) {
        List<String> fields = null;
        List<Evidence.GpuSample> out = new ArrayList<>();
        double t0 = Double.NaN;
        String lastStamp = null;
        int row = 0;
        for (int i = 0; i < lines.size(); i++) {
            String l = lines.get(i);
            Matcher q = l.contains("--query-gpu") ? QUERY.matcher(l) : null;
            if (q != null && q.find()) {
                fields = new ArrayList<>();
                for (String f : q.group(1).split(",")) if (!f.isBlank()) fields.add(f.strip().toLowerCase(Locale.ROOT));
                continue;
            }
            List<String> header = l.contains(",") ? csvHeader(l) : null;
            if (header != null) { fields = header; continue; }
            if (fields == null || l.isBlank() || !l.contains(",") && fields.size() > 1) continue;
            String[] cells = l.strip().split("\\s*,\\s*", -1);
            if (cells.length != fields.size()) {
                throw new Unreadable(Text.lineSpan(file, i + 1, l), "the row has " + cells.length + " values where the query names "
                        + fields.size() + " fields (" + String.join(", ", fields) + ")");
            }
            Map<String, Double> values = new LinkedHashMap<>();
            int gpu = -1;
            double at = Double.NaN;
            String stamp = null;
            for (int c = 0; c < cells.length; c++) {
                String f = fields.get(c), v = cells[c].strip();
                if (f.equals("timestamp")) {
                    stamp = v;
                    at = smiTime(v);
                    continue;
                }
                if (v.startsWith("[") || v.equals("N/A")) continue;   // [N/A], [Not Supported], [Unknown Error]
                if (f.equals("index")) { gpu = (int) Text.whole(v, -1); continue; }
                String key = QUERY_FIELDS.get(f);
                if (key == null) continue;
                double d = Text.number(v.replaceFirst("\\s*(%|MHz|W|MiB|C)$", ""), Double.NaN);
                if (!Double.isNaN(d)) values.put(key, d);
            }
            // without the index field, the rows of one timestamp are the GPUs in order
            if (gpu < 0 && stamp != null) {
                row = stamp.equals(lastStamp) ? row + 1 : 0;
                lastStamp = stamp;
                gpu = row;
            }
            if (!Double.isNaN(at) && Double.isNaN(t0)) t0 = at;
            add(out, MAX_SAMPLES, file, i, new Evidence.GpuSample("", gpu, Double.isNaN(at) ? -1 : round(at - t0), values, Text.lineSpan(file, i + 1, l)));
        }
        return new Evidence.GpuSamples(file, Evidence.Kind.SMI_CSV, List.copyOf(out));
    }

    /** nvidia-smi's timestamp (2024/05/14 10:21:33.123) in seconds, NaN when it is none. */
    private static double smiTime(String v) {
        Matcher m = SMI_TIME.matcher(v);
        if (!m.matches()) return Double.NaN;
        double ms = m.group(7) == null ? 0 : Integer.parseInt((m.group(7) + "00").substring(0, 3)) / 1000.0;
        return epoch(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3)), m.group(4), m.group(5),
                m.group(6)) + ms;
    }

    private static double epoch(int y, int mo, int d, String h, String mi, String s) {
        try {
            return LocalDateTime.of(y, mo, d, Integer.parseInt(h), Integer.parseInt(mi), Integer.parseInt(s)).toEpochSecond(ZoneOffset.UTC);
        } catch (RuntimeException e) {
            return Double.NaN;
        }
    }

    private static double round(double seconds) {
        return Math.round(seconds * 1000) / 1000.0;
    }

    // ---------------------------------------------------------------- dcgm-exporter

    static Evidence.GpuSamples dcgm(String file, List<String> lines) {
        List<Evidence.GpuSample> out = new ArrayList<>();
        Scrape cur = new Scrape(Double.NaN);
        double t0 = Double.NaN, marker = Double.NaN;
        for (int i = 0; i < lines.size(); i++) {
            String raw = lines.get(i), l = raw.strip();
            int off = raw.indexOf(l.isEmpty() ? "" : l.substring(0, 1));
            double time = timeLine(l);
            if (!Double.isNaN(time)) {
                if (!cur.gpus.isEmpty()) {
                    t0 = cur.flush(out, file, t0);
                    cur = new Scrape(Double.NaN);
                }
                marker = time;
                continue;
            }
            if (!l.startsWith("DCGM_") || !SAMPLE_START.matcher(l).find()) continue;
            Matcher m = METRIC.matcher(l);
            if (!m.matches()) throw new Unreadable(Text.lineSpan(file, i + 1, raw), "the line is no metric sample (NAME{label=\"value\",...} value)");
            if (m.group(3).matches("NaN|[+-]?Inf")) continue;   // Prometheus' no-value
            double v = Text.number(m.group(3), Double.NaN);
            if (Double.isNaN(v)) throw new Unreadable(Text.span(file, i + 1, off + m.start(3) + 1, m.group(3).length()),
                    "the value '" + m.group(3) + "' is not a number");
            String key = DCGM.get(m.group(1));
            if (key == null) continue;
            Map<String, String> labels = new HashMap<>();
            if (m.group(2) != null) {
                Matcher lm = LABEL.matcher(m.group(2));
                while (lm.find()) labels.put(lm.group(1), lm.group(2));
            }
            int gpu = (int) Text.whole(labels.getOrDefault("gpu", ""), -1);
            if (gpu < 0) continue;
            String host = labels.getOrDefault("Hostname", labels.getOrDefault("hostname", ""));
            String gpuKey = host + "\u0000" + gpu;
            // the XID count has a series per XID: one sample sums them
            String seriesKey = key + "\u0000" + labels.getOrDefault("xid", "");
            Scrape.Gpu g = cur.gpus.get(gpuKey);
            if (g != null && g.series.contains(seriesKey)) {
                t0 = cur.flush(out, file, t0);
                cur = new Scrape(Double.NaN);
                g = null;
            }
            if (Double.isNaN(cur.time)) {
                cur.time = m.group(4) != null ? Long.parseLong(m.group(4)) / 1000.0 : marker;
                marker = Double.NaN;   // a time line dates the one scrape after it
            }
            if (g == null) {
                g = new Scrape.Gpu(host, gpu, Text.lineSpan(file, i + 1, raw));
                cur.gpus.put(gpuKey, g);
            }
            g.series.add(seriesKey);
            g.values.merge(key, v, key.equals("xid_errors_in_window") ? Double::sum : (a, b) -> b);
            if (out.size() + cur.gpus.size() > MAX_SAMPLES) {
                throw new Unreadable(Text.span(file, i + 1, 1, 0), "more than " + MAX_SAMPLES + " samples");
            }
        }
        cur.flush(out, file, t0);
        return new Evidence.GpuSamples(file, Evidence.Kind.DCGM_METRICS, List.copyOf(out));
    }

    /** A time line between scrapes in seconds since the epoch (as if UTC; only differences are used), NaN for other lines. */
    static double timeLine(String l) {
        if (l.isEmpty() || l.length() > 64 || l.startsWith("DCGM_")) return Double.NaN;
        Matcher e = EPOCH.matcher(l);
        if (e.matches()) return Long.parseLong(e.group(1));
        Matcher iso = ISO.matcher(l);
        if (iso.matches()) {
            return epoch(Integer.parseInt(iso.group(1)), Integer.parseInt(iso.group(2)), Integer.parseInt(iso.group(3)), iso.group(4),
                    iso.group(5), iso.group(6));
        }
        Matcher d = DATE.matcher(l);
        if (d.matches() && MONTHS.contains(d.group(1))) {
            return epoch(Integer.parseInt(d.group(6)), MONTHS.indexOf(d.group(1)) + 1, Integer.parseInt(d.group(2)), d.group(3),
                    d.group(4), d.group(5));
        }
        return Double.NaN;
    }

    /** One scrape: per GPU (by host and index) the values read and the series seen. */
    private static final class Scrape {
        double time;
        final Map<String, Gpu> gpus = new LinkedHashMap<>();

        Scrape(double time) { this.time = time; }

        /** Adds the scrape's samples; returns the first scrape's time (this one's, when it is the first with a time). */
        double flush(List<Evidence.GpuSample> out, String file, double t0) {
            double first = Double.isNaN(t0) ? time : t0;
            for (Gpu g : gpus.values()) {
                double s = Double.isNaN(time) || Double.isNaN(first) ? -1 : round(time - first);
                out.add(new Evidence.GpuSample(g.host, g.gpu, s, g.values, g.span));
            }
            return first;
        }

        static final class Gpu {
            final String host;
            final int gpu;
            final Span span;
            final Map<String, Double> values = new LinkedHashMap<>();
            final java.util.Set<String> series = new java.util.HashSet<>();

            Gpu(String host, int gpu, Span span) {
                this.host = host;
                this.gpu = gpu;
                this.span = span;
            }
        }
    }
}
