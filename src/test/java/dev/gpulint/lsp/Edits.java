package dev.gpulint.lsp;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.eclipse.lsp4j.TextEdit;

/** Applies LSP text edits to a text as an editor does (tests: what a code action's edit makes of a buffer). */
final class Edits {
    private Edits() {}

    static String apply(String text, List<TextEdit> edits) {
        Positions at = new Positions(text);
        List<int[]> spans = new ArrayList<>();
        List<String> news = new ArrayList<>();
        for (TextEdit e : edits) {
            spans.add(new int[] {at.offset(e.getRange().getStart()), at.offset(e.getRange().getEnd()), spans.size()});
            news.add(e.getNewText());
        }
        spans.sort(Comparator.<int[]>comparingInt(s -> s[0]).reversed());
        StringBuilder b = new StringBuilder(text);
        for (int[] s : spans) b.replace(s[0], s[1], news.get(s[2]));
        return b.toString();
    }
}
