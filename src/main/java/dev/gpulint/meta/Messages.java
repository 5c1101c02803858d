package dev.gpulint.meta;

import dev.gpulint.spec.Quantities;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A rule's message templates ({@code messages:} in ID.yaml) and how they are filled in. The DRL passes a
 * key and named arguments; the wording, plurals and number formats live here and in ID.yaml.
 *
 * <p>The syntax (docs/writing-rules.md shows it too):
 * <ul>
 *   <li>{@code {name}}: the argument as Java writes it (text as it is, a whole number as digits).</li>
 *   <li>{@code {name:format}}: a number in one of {@link #FORMATS}: {@code {bw:gbs}} → "450 GB/s".</li>
 *   <li>{@code {name|one|other}}: {@code one} when the number is 1, else {@code other}; {@code #} in either
 *       stands for the number: {@code {n|# node|# nodes}}.</li>
 *   <li>{@code {name?yes|no}}: {@code yes} when the argument is true, else {@code no} (which may be left out:
 *       {@code {name?yes}}). Both may hold placeholders of their own.</li>
 *   <li>{@code {name=A,B:text|C:text|*:text}}: the branch whose labels hold the argument (an enum's name, or
 *       the text); {@code *} is the last branch, for any other value.</li>
 *   <li>{@code {name:list}}: a list's items joined by ", ", the first 16 and how many more.</li>
 *   <li>{@code {name*text}}: {@code text} once per item of a list, its placeholders reading that item's
 *       properties (a record's components or a map's keys): {@code {others*; {model} has {bytes:gib}}}. Nothing
 *       for an empty list.</li>
 *   <li>{@code {{} and {@code }}}: a literal brace, outside placeholders.</li>
 * </ul>
 */
public final class Messages {
    private Messages() {}

    /** The number formats a placeholder may name after a colon. */
    public static final Set<String> FORMATS = Set.of("num", "num2", "gb", "count", "percent", "percent1", "big",
            "gbs", "gbits", "both", "either", "gib", "bytes", "list");

    /** A template that names an unknown format, an unclosed brace or an argument not given. */
    public static final class TemplateException extends IllegalArgumentException {
        public TemplateException(String message) { super(message); }
    }

    /** The template filled in with the arguments; a missing argument or bad syntax is an exception. */
    public static String render(String template, Map<String, ?> args) {
        StringBuilder out = new StringBuilder(template.length() + 64);
        render(template, 0, template.length(), args, out, null, null);
        return out.toString();
    }

    /**
     * A regular expression that matches every text the template can render: a help page's example message is
     * checked against it ({@code {x}} matches any text, every branch of a choice or plural is an alternative).
     */
    public static String pattern(String template) {
        return pattern(template, 0, template.length(), false);
    }

    private static String pattern(String t, int from, int to, boolean plural) {
        StringBuilder re = new StringBuilder();
        int i = from;
        while (i < to) {
            char c = t.charAt(i);
            if ((c == '{' || c == '}') && i + 1 < to && t.charAt(i + 1) == c) { re.append("\\").append(c); i += 2; continue; }
            if (c == '#' && plural) { re.append("-?[0-9][0-9.,]*"); i++; continue; }
            if (c != '{') { re.append(java.util.regex.Pattern.quote(String.valueOf(c))); i++; continue; }
            int end = close(t, i, to);
            int n = i + 1;
            while (n < end && (Character.isLetterOrDigit(t.charAt(n)) || t.charAt(n) == '_')) n++;
            char kind = n < end ? t.charAt(n) : ' ';
            if (kind == '|' || kind == '?' || kind == '=') {
                List<String> branches = new java.util.ArrayList<>();
                for (int at = n + 1; ; ) {
                    int split = bar(t, at, end);
                    int stop = split < 0 ? end : split;
                    int start = kind == '=' ? t.indexOf(':', at) + 1 : at;
                    branches.add(pattern(t, start, stop, kind == '|' || plural));
                    if (split < 0) break;
                    at = split + 1;
                }
                if (kind == '?' && branches.size() == 1) branches.add("");
                re.append("(?:").append(String.join("|", branches)).append(')');
            } else if (kind == '*') {
                re.append("(?:").append(pattern(t, n + 1, end, false)).append(")*");
            } else {
                re.append("(?:.*?)");
            }
            i = end + 1;
        }
        return re.toString();
    }

    /** The names of the arguments a template uses (checked at build time against what the DRL supplies). */
    public static Set<String> arguments(String template) {
        Set<String> names = new LinkedHashSet<>();
        render(template, 0, template.length(), null, new StringBuilder(), names, null);
        return names;
    }

    /**
     * Renders template[from, to) into out. With args null it only walks the syntax, collecting the
     * argument names into names and taking every branch. Inside a plural, count is its number ('#').
     */
    private static void render(String t, int from, int to, Map<String, ?> args, StringBuilder out, Set<String> names,
                               Object count) {
        int i = from;
        while (i < to) {
            char c = t.charAt(i);
            if (c == '{' && i + 1 < to && t.charAt(i + 1) == '{') { out.append('{'); i += 2; continue; }
            if (c == '}' && i + 1 < to && t.charAt(i + 1) == '}') { out.append('}'); i += 2; continue; }
            if (c == '}') throw new TemplateException("a '}' without its '{' at " + i + " in: " + t);
            if (c == '#' && count != null) { out.append(plain(count)); i++; continue; }
            if (c != '{') { out.append(c); i++; continue; }
            int end = close(t, i, to);
            placeholder(t, i + 1, end, args, out, names, count);
            i = end + 1;
        }
    }

    /** The index of the '}' that closes the '{' at open. */
    private static int close(String t, int open, int to) {
        int depth = 0;
        for (int i = open; i < to; i++) {
            char c = t.charAt(i);
            if (c == '{') depth++;
            else if (c == '}' && --depth == 0) return i;
        }
        throw new TemplateException("a '{' that is never closed at " + open + " in: " + t);
    }

    /** The '|' at depth 0 within [from, to), or -1. */
    private static int bar(String t, int from, int to) {
        int depth = 0;
        for (int i = from; i < to; i++) {
            char c = t.charAt(i);
            if (c == '{') depth++;
            else if (c == '}') depth--;
            else if (c == '|' && depth == 0) return i;
        }
        return -1;
    }

    private static void placeholder(String t, int from, int to, Map<String, ?> args, StringBuilder out, Set<String> names,
                                    Object count) {
        int n = from;
        while (n < to && (Character.isLetterOrDigit(t.charAt(n)) || t.charAt(n) == '_')) n++;
        String name = t.substring(from, n);
        if (name.isEmpty()) throw new TemplateException("a placeholder without a name at " + from + " in: " + t);
        if (names != null) names.add(name);
        Object value = args == null ? null : value(args, name, t);
        if (n == to) {
            if (args != null) out.append(plain(value));
            return;
        }
        char kind = t.charAt(n);
        if (kind == ':') {
            String format = t.substring(n + 1, to);
            if (!FORMATS.contains(format)) throw new TemplateException("unknown format '" + format + "' in: " + t);
            if (args != null) out.append(format.equals("big") ? big(value, name) : format.equals("list") ? list(value, name)
                    : format(format, number(value, name)));
        } else if (kind == '=') {
            select(t, n + 1, to, args, out, names, count, value);
        } else if (kind == '*') {
            // the item's placeholders name its properties, not the template's arguments: checked, not collected
            if (args == null) render(t, n + 1, to, null, out, new LinkedHashSet<>(), count);
            else for (Object item : items(value, name)) render(t, n + 1, to, properties(item, name), out, null, count);
        } else if (kind == '|' || kind == '?') {
            int split = bar(t, n + 1, to);
            int yesEnd = split < 0 ? to : split;
            if (kind == '|' && split < 0) throw new TemplateException("a plural needs two forms, {" + name + "|one|other}, in: " + t);
            boolean first = args == null || (kind == '|' ? number(value, name) == 1 : truth(value, name));
            Object inner = kind == '|' ? value : count;
            if (args == null || first) render(t, n + 1, yesEnd, args, out, names, inner);
            if ((args == null || !first) && split >= 0) render(t, split + 1, to, args, out, names, inner);
        } else {
            throw new TemplateException("'" + kind + "' after {" + name + " in: " + t);
        }
    }

    /** {@code {name=A,B:text|C:text|*:text}}: the branch whose label lists the value (its enum name or text). */
    private static void select(String t, int from, int to, Map<String, ?> args, StringBuilder out, Set<String> names,
                               Object count, Object value) {
        String v = value == null ? "null" : value instanceof Enum<?> e ? e.name() : String.valueOf(value);
        boolean fallback = false;
        for (int at = from; at < to; ) {
            int split = bar(t, at, to);
            int end = split < 0 ? to : split;
            int colon = t.indexOf(':', at);
            if (colon < 0 || colon >= end) throw new TemplateException("a choice without 'label:' at " + at + " in: " + t);
            List<String> labels = List.of(t.substring(at, colon).split(","));
            fallback |= labels.contains("*");
            if (args == null) render(t, colon + 1, end, null, out, names, count);
            else if (labels.contains(v) || labels.contains("*")) {
                render(t, colon + 1, end, args, out, names, count);
                return;
            }
            at = end + 1;
            if (split < 0) break;
        }
        if (args != null) throw new TemplateException("no branch for '" + v + "' in: " + t);
        if (!fallback) throw new TemplateException("a choice needs a last branch '*:' in: " + t);
    }

    private static Object value(Map<String, ?> args, String name, String t) {
        if (!args.containsKey(name)) throw new TemplateException("no argument '" + name + "' for: " + t);
        return args.get(name);
    }

    private static double number(Object value, String name) {
        if (value instanceof Number n) return n.doubleValue();
        throw new TemplateException("argument '" + name + "' is not a number: " + value);
    }

    private static boolean truth(Object value, String name) {
        if (value instanceof Boolean b) return b;
        throw new TemplateException("argument '" + name + "' is not true or false: " + value);
    }

    /** A value as Java writes it (a fraction as 0.5: give it a format, {@code {x:num}}, for a message). */
    static String plain(Object value) { return String.valueOf(value); }

    private static List<?> items(Object value, String name) {
        if (value instanceof List<?> items) return items;
        throw new TemplateException("argument '" + name + "' is not a list: " + value);
    }

    /** An item of a {@code {name*text}} list by its properties: a map as it is, a record by its components. */
    private static Map<String, ?> properties(Object item, String name) {
        if (item instanceof Map<?, ?> m) {
            Map<String, Object> out = new java.util.LinkedHashMap<>();
            m.forEach((k, v) -> out.put(String.valueOf(k), v));
            return out;
        }
        if (item != null && item.getClass().isRecord()) {
            Map<String, Object> out = new java.util.LinkedHashMap<>();
            for (java.lang.reflect.RecordComponent c : item.getClass().getRecordComponents()) {
                try {
                    out.put(c.getName(), c.getAccessor().invoke(item));
                } catch (ReflectiveOperationException e) {
                    throw new TemplateException("cannot read " + c.getName() + " of an item of '" + name + "': " + e);
                }
            }
            return out;
        }
        throw new TemplateException("an item of '" + name + "' is neither a record nor a map: " + item);
    }

    /** A list's first 16 items, then "… and N more". */
    private static String list(Object value, String name) {
        if (!(value instanceof List<?> items)) throw new TemplateException("argument '" + name + "' is not a list: " + value);
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < items.size() && i < 16; i++) b.append(i > 0 ? ", " : "").append(items.get(i));
        if (items.size() > 16) b.append(", \u2026 and ").append(items.size() - 16).append(" more");
        return b.toString();
    }

    /** A product that saturated at Long.MAX_VALUE reads as what it is. */
    private static String big(Object value, String name) {
        if (value instanceof Long l) return l == Long.MAX_VALUE ? "more than 9.2e18" : String.valueOf(l);
        return value instanceof Integer ? String.valueOf(value) : format("num", number(value, name));
    }

    /** The number formats (the same as facts.Fmt and facts.HwUnits, which DRL conditions still call). */
    static String format(String format, double v) {
        return switch (format) {
            case "num" -> Quantities.format(v);
            case "num2" -> Quantities.format2(v);
            case "gb" -> Quantities.format2(v / 1e9) + " GB";
            case "count" -> v >= 1e12 ? Quantities.format(v / 1e12) + "T" : v >= 1e9 ? Quantities.format(v / 1e9) + "B"
                    : v >= 1e6 ? Quantities.format(v / 1e6) + "M" : Quantities.format(v);
            case "percent" -> String.valueOf(Math.round(v * 100));
            case "percent1" -> Quantities.format(Math.round(v * 1000) / 10.0);
            case "gbs" -> Quantities.format(v / 1e9) + " GB/s";
            case "gbits" -> Quantities.format(v * 8 / 1e9) + " Gb/s";
            case "both" -> format("gbits", v) + " = " + format("gbs", v);
            case "either" -> format("gbits", v) + " or " + format("gbs", v);
            case "bytes" -> v >= (1L << 30) ? Quantities.format(v / (1L << 30)) + " GiB"
                    : v >= (1L << 20) ? Quantities.format(v / (1L << 20)) + " MiB" : (long) v + " B";
            case "gib" -> Quantities.format(v / (1L << 30)) + " GiB (" + Quantities.format2(v / 1e9) + " GB)";
            default -> throw new TemplateException("unknown format '" + format + "'");
        };
    }
}
