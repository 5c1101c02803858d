package dev.gpulint.derive.ops;

import dev.gpulint.core.Lazy;
import dev.gpulint.core.DidYouMean;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/** DCGM's field names and their classes, from catalog/dcgm-fields.txt (see its header for sources). */
public final class DcgmFields {
    private final Map<String, String> classes = new LinkedHashMap<>();
    /** Rate fields not in bytes per second: bytes in one unit, and the unit's name. */
    private final Map<String, Double> unitBytes = new LinkedHashMap<>();
    private final Map<String, String> unitNames = new LinkedHashMap<>();
    private static final Lazy<DcgmFields> BUILT_IN = new Lazy<>(() -> load());

    public static DcgmFields builtIn() { return BUILT_IN.get(); }

    private static DcgmFields load() {
        DcgmFields f = new DcgmFields();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(
                DcgmFields.class.getClassLoader().getResourceAsStream("catalog/dcgm-fields.txt"), StandardCharsets.UTF_8))) {
            for (String line; (line = r.readLine()) != null; ) {
                line = line.strip();
                if (line.isEmpty() || line.startsWith("#")) continue;
                String[] p = line.split("\\s+", 4);
                f.classes.put("DCGM_FI_" + p[1], p[0]);
                if (p.length == 4) {
                    f.unitBytes.put("DCGM_FI_" + p[1], Double.parseDouble(p[2]));
                    f.unitNames.put("DCGM_FI_" + p[1], p[3]);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        for (String kind : new String[] {"CRC_FLIT_ERROR_COUNT", "CRC_DATA_ERROR_COUNT", "REPLAY_ERROR_COUNT", "RECOVERY_ERROR_COUNT", "BANDWIDTH"}) {
            for (int l = 0; l <= 17; l++) f.classes.put("DCGM_FI_DEV_NVLINK_" + kind + "_L" + l, kind.equals("BANDWIDTH") ? "RATE" : "OTHER");
        }
        for (int i = 0; i <= 7; i++) {
            f.classes.put("DCGM_FI_PROF_NVDEC" + i + "_ACTIVE", "OTHER");
            f.classes.put("DCGM_FI_PROF_NVJPG" + i + "_ACTIVE", "OTHER");
            f.classes.put("DCGM_FI_DEV_CPU_AFFINITY_" + i, "OTHER");
        }
        for (int l = 0; l <= 17; l++) {
            f.classes.put("DCGM_FI_PROF_NVLINK_L" + l + "_TX_BYTES", "RATE");
            f.classes.put("DCGM_FI_PROF_NVLINK_L" + l + "_RX_BYTES", "RATE");
        }
        return f;
    }

    /** Metric names as Prometheus sees them: dcgm-exporter 1.x wrote them in lower case. */
    private static String key(String name) { return name.toUpperCase(Locale.ROOT); }

    public boolean known(String name) { return classes.containsKey(key(name)); }

    /** RATE, CUMULATIVE or OTHER; OTHER for names not in the list. */
    public String classOf(String name) { return classes.getOrDefault(key(name), "OTHER"); }

    /** Bytes in one unit of a rate field's value: 1 for bytes per second, 1000 for KB/s, 1.024e6 for 1000 KiB/s. */
    public double unitBytes(String name) { return unitBytes.getOrDefault(key(name), 1.0); }

    /** The unit of a rate field's value, as a name: "bytes per second" unless the field list says otherwise. */
    public String unitName(String name) { return unitNames.getOrDefault(key(name), "bytes per second"); }

    /** The known name one or two edits away, when {@code name} is not known: a likely misspelling; else null. */
    public String misspeltFrom(String name) {
        String k = key(name);
        if (classes.containsKey(k)) return null;
        String best = null;
        int bestD = 3;
        for (String c : classes.keySet()) {
            if (Math.abs(c.length() - k.length()) >= bestD) continue;
            int d = dev.gpulint.core.DidYouMean.distance(k, c);
            if (d < bestD) { bestD = d; best = c; }
        }
        return best;
    }

    /**
     * For a misspelt name: the only known name one edit from it (a letter added, dropped or changed), when the name
     * is written in upper case and that field is also {@link #misspeltFrom}'s answer; null otherwise.
     */
    public String oneEdit(String name) {
        String meant = misspeltFrom(name);
        if (meant == null || name.length() > dev.gpulint.core.DidYouMean.MAX_LENGTH) return null;
        String k = key(name), found = null;
        for (String c : classes.keySet()) {
            if (Math.abs(c.length() - k.length()) > 1 || dev.gpulint.core.DidYouMean.distance(k, c) != 1) continue;
            if (found != null) return null;
            found = c;
        }
        // a lower-case (1.x) name would need its case kept, and the message names the upper-case field: a person's call
        return meant.equals(found) && name.equals(k) ? found : null;
    }
}
