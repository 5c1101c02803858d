package dev.gpulint.derive.nccl;

import dev.gpulint.core.Lazy;
import dev.gpulint.core.DidYouMean;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** The NCCL variable list of catalog/nccl-env.txt: known names, debugging-only ones, plugin prefixes. */
public final class NcclVariables {
    private final Set<String> known = new LinkedHashSet<>();
    private final Set<String> ncclOwn = new LinkedHashSet<>();
    private final Set<String> debug = new LinkedHashSet<>();
    /** A debugging variable's value when unset (tag "default=V"), where NCCL's documentation gives one. */
    private final java.util.Map<String, String> defaults = new java.util.HashMap<>();
    /** libibverbs' own RDMAV_* variables (tag "verbs"). */
    private final Set<String> verbs = new LinkedHashSet<>();
    private final List<String> prefixes = new ArrayList<>();

    private static final Lazy<NcclVariables> BUILT_IN = new Lazy<>(() -> load());

    public static NcclVariables builtIn() { return BUILT_IN.get(); }

    private static NcclVariables load() {
        NcclVariables v = new NcclVariables();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(
                NcclVariables.class.getClassLoader().getResourceAsStream("catalog/nccl-env.txt"), StandardCharsets.UTF_8))) {
            for (String line; (line = r.readLine()) != null; ) {
                line = line.strip();
                if (line.isEmpty() || line.startsWith("#")) continue;
                String[] parts = line.split("\\s+");
                if (parts[0].equals("prefix")) { v.prefixes.add(parts[1]); continue; }
                v.known.add(parts[0]);
                String tag = parts.length > 1 ? parts[1] : "";
                if (tag.equals("verbs")) v.verbs.add(parts[0]);
                else if (!tag.equals("torch") && !tag.equals("plugin")) v.ncclOwn.add(parts[0]);
                if (tag.equals("debug")) v.debug.add(parts[0]);
                if (parts.length > 2 && parts[2].startsWith("default=")) v.defaults.put(parts[0], parts[2].substring("default=".length()));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return v;
    }

    public boolean isKnown(String name) {
        if (known.contains(name)) return true;
        for (String p : prefixes) if (name.startsWith(p)) return true;
        return false;
    }

    public boolean isDebugOnly(String name) { return debug.contains(name); }

    /**
     * A debugging variable set to what NCCL takes when it is unset ({@code NCCL_P2P_DISABLE=0}): it changes nothing,
     * so there is nothing to remove it for (NCCL007 stays quiet).
     */
    public boolean isDefault(String name, String value) {
        String d = defaults.get(name);
        return d != null && value != null && d.equals(value.strip());
    }

    /**
     * For an unknown name: its {@link #suggestion} when that is the only name of the same reader one edit away (a
     * letter added, dropped, changed, or two swapped: DidYouMean's distance 1) and not a debugging variable; null
     * otherwise, and a fix is a person's call.
     */
    public String oneEdit(String name) {
        String meant = suggestion(name);
        if (meant == null || name.length() > DidYouMean.MAX_LENGTH) return null;
        String found = null;
        for (String c : name.startsWith("RDMAV_") ? verbs : ncclOwn) {
            if (Math.abs(c.length() - name.length()) > 1 || DidYouMean.distance(name, c) != 1) continue;
            if (found != null) return null;
            found = c;
        }
        // a debugging variable (NCCL007) would turn one finding into another: renaming into it is a person's call
        return meant.equals(found) && !isDebugOnly(found) ? found : null;
    }

    /** For an unknown name: NCCL's own closest name when the name looks like a misspelling of it; null otherwise. */
    public String suggestion(String name) {
        if (isKnown(name)) return null;
        // asked twice for each unknown name (its reading and oneEdit), each time compared with every name of NCCL's: kept,
        // up to MAX_KEPT names (the built-in list lives as long as a daemon or language server does)
        java.util.Optional<String> kept = suggestions.get(name);
        if (kept != null) return kept.orElse(null);
        String s = DidYouMean.closest(name, name.startsWith("RDMAV_") ? verbs : ncclOwn);
        if (suggestions.size() < MAX_KEPT) suggestions.put(name, java.util.Optional.ofNullable(s));
        return s;
    }

    /** The most suggestions {@link #suggestion} keeps. */
    static final int MAX_KEPT = 4096;

    private final java.util.Map<String, java.util.Optional<String>> suggestions = new java.util.concurrent.ConcurrentHashMap<>();
}
