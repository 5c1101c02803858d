package dev.gpulint.read.evidence;

import dev.gpulint.core.Span;
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
 * <p>
 * As it is pasted: indented by a docs block, the leading '#' eaten by markdown, behind a shell
 * prompt, sudo, srun or mpirun line (which names the test: all_reduce_perf, alltoall_perf...), and,
 * run with NCCL_DEBUG_SUBSYS=COLL, each row cut by NCCL's own lines: "8388608 2097152 float sum
 * -1host:pid:tid [0] NCCL INFO AllReduce: ...", the out-of-place figures after a later NCCL line,
 * the in-place ones on a line of their own. The cut pieces are joined into the row they belong to
 * (its span is its first piece's); NCCL's lines are the NCCL log reader's.
 */
final class NcclTestsReader {
    /** Rows read; a sweep from 8 B to 16 GiB by factor 2 has 32. */
    static final int MAX_ROWS = 10_000;
    static final Pattern RANK = Pattern.compile(
            "^Rank\\s+(\\d{1,7})\\s+(?:Group\\s+\\d+\\s+)?Pid\\s+\\d+\\s+on\\s+(\\S+)\\s+device\\s+(\\d{1,4})\\s+\\[[^\\]]{0,32}\\]\\s+(.*)$");
    private static final Pattern TEST = Pattern.compile(
            "(all_reduce|all_gather|reduce_scatter|alltoall|broadcast|sendrecv|hypercube|gather|scatter|reduce)(_perf)?");
    private static final Pattern HEADER = Pattern.compile("^\\s*#?\\s*nThread \\d");

    private NcclTestsReader() {}

    /** The "# nThread 1 nGpus ..." line, indented or with its '#' lost. */
    static boolean isHeader(String line) {
        return line.contains("nThread ") && HEADER.matcher(line).find();
    }

    /** A word of the table and where it is written. */
    private record Cell(String text, int line, int column) {}

    static Evidence.NcclTests read(String file, List<String> lines) {
        String test = "";
        Span header = null;
        List<Evidence.Rank> ranks = new ArrayList<>();
        List<Evidence.Row> rows = new ArrayList<>();
        List<String> columns = null;
        List<Cell> pending = new ArrayList<>();
        double avg = -1;
        Span avgSpan = null;
        for (int i = 0; i < lines.size(); i++) {
            int ln = i + 1;
            // what nccl-tests printed on this line: up to where an NCCL debug line starts
            String l = ncclTestsPart(lines.get(i));
            boolean cut = l.length() < lines.get(i).stripTrailing().length();
            int indent = 0;
            while (indent < l.length() && Character.isWhitespace(l.charAt(indent))) indent++;
            boolean comment = indent < l.length() && l.charAt(indent) == '#';
            int from = comment ? indent + 1 : indent;
            String body = l.substring(from);
            String stripped = body.strip();
            if (header == null && isHeader(l)) header = Text.lineSpan(file, ln, l);
            if (test.isEmpty() && (stripped.startsWith("Collective test starting:") || (header == null && l.contains("_perf")))) {
                Matcher m = TEST.matcher(stripped.startsWith("Collective") ? stripped.substring(stripped.indexOf(':') + 1) : l);
                if (m.find() && (stripped.startsWith("Collective") || m.group(2) != null)) test = m.group(1);
            }
            Matcher rank = RANK.matcher(stripped);
            if (rank.matches()) {
                ranks.add(new Evidence.Rank(Integer.parseInt(rank.group(1)), rank.group(2), Integer.parseInt(rank.group(3)),
                        rank.group(4).strip(), Text.lineSpan(file, ln, l)));
                continue;
            }
            List<Text.Token> t = Text.tokens(body);
            if (t.size() > 1 && t.get(0).text().equals("Avg") && stripped.startsWith("Avg bus bandwidth") && body.contains(":")) {
                String v = body.substring(body.indexOf(':') + 1).strip();
                avg = Text.number(v, -1);
                avgSpan = Text.span(file, ln, from + body.indexOf(v, body.indexOf(':')) + 1, v.length());
                continue;
            }
            if (t.size() > 2 && t.get(0).text().equals("size") && t.stream().anyMatch(x -> x.text().equals("busbw"))) {
                columns = t.stream().map(Text.Token::text).toList();
                pending.clear();
                continue;
            }
            if (columns == null || comment || t.isEmpty()) continue;
            // a row starts with its size and count, then the data type's name; a piece of a cut row goes on with times
            boolean starts = t.size() > 2 && Text.whole(t.get(0).text(), -1) >= 0 && Text.whole(t.get(1).text(), -1) >= 0
                    && Double.isNaN(Text.number(t.get(2).text(), Double.NaN));
            if (starts) pending.clear();
            else if (pending.isEmpty() || Text.number(t.get(0).text(), -1) < 0) { pending.clear(); continue; }
            for (Text.Token x : t) if (pending.size() < columns.size()) pending.add(new Cell(x.text(), ln, from + x.column()));
            // a row cut by an NCCL line goes on after it; a row that is short without being cut is read as far as it goes
            if (pending.size() < columns.size() && cut) continue;
            if (rows.size() >= MAX_ROWS) throw new Unreadable(Text.span(file, ln, 1, 0),
                    "the size table has more than " + MAX_ROWS + " rows");
            rows.add(row(file, pending, columns));
            pending.clear();
        }
        if (test.isEmpty()) {
            String base = file.substring(file.lastIndexOf('/') + 1).toLowerCase(Locale.ROOT);
            Matcher m = TEST.matcher(base);
            if (m.find()) test = m.group(1);
        }
        if (header == null) header = ranks.isEmpty() ? Text.span(file, 1, 1, 0) : ranks.get(0).span();
        return new Evidence.NcclTests(file, test, header, List.copyOf(ranks), List.copyOf(rows), avg, avgSpan);
    }

    /** The line's text before an NCCL debug line that begins in it (the whole line when none does). */
    static String ncclTestsPart(String line) {
        if (!line.contains("NCCL ")) return line;
        Matcher p = NcclLogReader.PREFIX.matcher(line);
        if (!p.find()) return line;
        // the row's last word runs into the host name: "-1mew0:64904:..." is the root -1, then host mew0
        String host = p.group(1);
        int k = 0;
        while (k < host.length() && "-0123456789.".indexOf(host.charAt(k)) >= 0) k++;
        if (k == host.length()) k = 0;
        return line.substring(0, p.start(1) + k);
    }

    private static Evidence.Row row(String file, List<Cell> t, List<String> columns) {
        int[] algbw = nth(columns, "algbw"), busbw = nth(columns, "busbw"), wrong = nth(columns, "#wrong");
        Cell first = t.get(0);
        Cell lastOnFirstLine = first;
        for (Cell c : t) if (c.line() == first.line()) lastOnFirstLine = c;
        Span span = new Span(file, first.line(), first.column(), first.line(), lastOnFirstLine.column() + lastOnFirstLine.text().length());
        return new Evidence.Row(Text.whole(first.text(), -1), num(t, algbw[0]), num(t, busbw[0]), count(t, wrong[0]),
                num(t, algbw[1]), num(t, busbw[1]), count(t, wrong[1]), span, at(file, t, wrong[0]), at(file, t, wrong[1]));
    }

    /** The first and second index of a column name, -1 for none. */
    private static int[] nth(List<String> columns, String name) {
        int first = columns.indexOf(name);
        int second = first < 0 ? -1 : columns.subList(first + 1, columns.size()).indexOf(name);
        return new int[] {first, second < 0 ? -1 : first + 1 + second};
    }

    private static double num(List<Cell> t, int i) { return i >= 0 && i < t.size() ? Text.number(t.get(i).text(), -1) : -1; }

    /** A #wrong count; -1 for "N/A" (nccl-tests prints it where it did not check, e.g. alltoall in place). */
    private static long count(List<Cell> t, int i) { return i >= 0 && i < t.size() ? Text.whole(t.get(i).text(), -1) : -1; }

    private static Span at(String file, List<Cell> t, int i) {
        return i >= 0 && i < t.size() ? Text.span(file, t.get(i).line(), t.get(i).column(), t.get(i).text().length()) : null;
    }
}
