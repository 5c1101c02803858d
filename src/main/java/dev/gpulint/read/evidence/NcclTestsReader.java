package dev.gpulint.read.evidence;

import dev.gpulint.core.Span;
import dev.gpulint.read.evidence.Text.Token;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * nccl-tests output (NVIDIA/nccl-tests): '#' header lines ("# nThread 1 nGpus 1 minBytes ...",
 * "# Using devices", one "#  Rank r Group g Pid p on HOST device d [0xbus] GPU NAME" line per
 * GPU), the column header ("size count type redop root time algbw busbw #wrong", out-of-place
 * then in-place), one row per size, "# Out of bounds values : 0 OK" and
 * "# Avg bus bandwidth : X". Columns are found by their names, so versions with or without
 * "root" read alike; an old "error" column is not a #wrong count and is left unread.
 */
final class NcclTestsReader {
    /** Rows read; a sweep from 8 B to 16 GiB by factor 2 has 32. */
    static final int MAX_ROWS = 10_000;
    static final Pattern RANK = Pattern.compile(
            "^#?\\s*Rank\\s+(\\d{1,7})\\s+(?:Group\\s+\\d+\\s+)?Pid\\s+\\d+\\s+on\\s+(\\S+)\\s+device\\s+(\\d{1,4})\\s+\\[[^\\]]{0,32}\\]\\s+(.*)$");
    private static final Pattern TEST = Pattern.compile(
            "(all_reduce|all_gather|reduce_scatter|alltoall|broadcast|sendrecv|hypercube|gather|scatter|reduce)(_perf)?");

    private NcclTestsReader() {}

    static boolean isHeader(String line) {
        return line.startsWith("# nThread ") || line.startsWith(" nThread ");
    }

    static Evidence.NcclTests read(String file, List<String> lines) {
        String test = "";
        Span header = null;
        List<Evidence.Rank> ranks = new ArrayList<>();
        List<Evidence.Row> rows = new ArrayList<>();
        List<String> columns = null;
        double avg = -1;
        Span avgSpan = null;
        for (int i = 0; i < lines.size(); i++) {
            String l = lines.get(i);
            int ln = i + 1;
            if (header == null && isHeader(l)) header = Text.lineSpan(file, ln, l);
            if (l.contains("Collective test starting:")) {
                Matcher m = TEST.matcher(l.substring(l.indexOf(':') + 1));
                if (m.find()) test = m.group(1);
            }
            Matcher rank = RANK.matcher(l);
            if (rank.matches()) {
                ranks.add(new Evidence.Rank(Integer.parseInt(rank.group(1)), rank.group(2), Integer.parseInt(rank.group(3)),
                        rank.group(4).strip(), Text.lineSpan(file, ln, l)));
                continue;
            }
            String bare = l.startsWith("#") ? l.substring(1) : l;
            List<Token> t = Text.tokens(bare);
            if (l.startsWith("#") && t.size() > 0 && t.get(0).text().equals("Avg") && l.contains(":")) {
                String v = l.substring(l.indexOf(':') + 1).strip();
                avg = Text.number(v, -1);
                int col = l.indexOf(v, l.indexOf(':')) + 1;
                avgSpan = Text.span(file, ln, col, v.length());
                continue;
            }
            if (t.size() > 2 && t.get(0).text().equals("size") && t.stream().anyMatch(x -> x.text().equals("busbw"))) {
                columns = t.stream().map(Token::text).toList();
                continue;
            }
            if (columns == null || l.startsWith("#") || t.isEmpty() || Text.whole(t.get(0).text(), -1) < 0) continue;
            if (rows.size() >= MAX_ROWS) throw new Unreadable(Text.span(file, ln, 1, 0),
                    "the size table has more than " + MAX_ROWS + " rows");
            rows.add(row(file, ln, l, t, columns));
        }
        if (test.isEmpty()) {
            String base = file.substring(file.lastIndexOf('/') + 1).toLowerCase(Locale.ROOT);
            Matcher m = TEST.matcher(base);
            if (m.find()) test = m.group(1);
        }
        if (header == null) header = ranks.isEmpty() ? Text.span(file, 1, 1, 0) : ranks.get(0).span();
        return new Evidence.NcclTests(file, test, header, List.copyOf(ranks), List.copyOf(rows), avg, avgSpan);
    }

    private static Evidence.Row row(String file, int ln, String line, List<Token> t, List<String> columns) {
        int[] algbw = nth(columns, "algbw"), busbw = nth(columns, "busbw"), wrong = nth(columns, "#wrong");
        return new Evidence.Row(Text.whole(t.get(0).text(), -1), num(t, algbw[0]), num(t, busbw[0]), count(t, wrong[0]),
                num(t, algbw[1]), num(t, busbw[1]), count(t, wrong[1]), Text.lineSpan(file, ln, line),
                at(file, ln, t, wrong[0]), at(file, ln, t, wrong[1]));
    }

    /** The first and second index of a column name, -1 for none. */
    private static int[] nth(List<String> columns, String name) {
        int first = columns.indexOf(name);
        int second = first < 0 ? -1 : columns.subList(first + 1, columns.size()).indexOf(name);
        return new int[] {first, second < 0 ? -1 : first + 1 + second};
    }

    private static double num(List<Token> t, int i) { return i >= 0 && i < t.size() ? Text.number(t.get(i).text(), -1) : -1; }

    private static long count(List<Token> t, int i) { return i >= 0 && i < t.size() ? Text.whole(t.get(i).text(), -1) : -1; }

    private static Span at(String file, int ln, List<Token> t, int i) {
        return i >= 0 && i < t.size() ? Text.span(file, ln, t.get(i).column(), t.get(i).text().length()) : null;
    }
}
