package dev.gpulint.settle;

import dev.gpulint.core.Finding;
import dev.gpulint.core.Fold;
import dev.gpulint.core.Span;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes the findings about folded node groups ({@link Fold}) as if nothing had been folded. A finding whose
 * identity carries a fold's token is about the folded node group itself: it is written once per member, with
 * the member's name and places. Any other text that carries a token (a job's finding that names the node
 * group, a comparison with the first reading of a file) names the representative, the first member.
 */
public final class Unfolder {
    private final Map<String, Fold> byToken = new HashMap<>();

    public Unfolder(List<Fold> folds) {
        for (Fold f : folds) byToken.put(f.token(), f);
    }

    public List<Finding> unfold(List<Finding> findings) {
        List<Finding> out = new ArrayList<>(findings.size());
        for (Finding f : findings) {
            Fold own = fold(f.identity());
            if (own == null) {
                // also a text that holds the token's characters without being one: it is bounded here
                out.add(carriesToken(f) ? member(f, null, 0) : f);
                continue;
            }
            for (int i = 0; i < own.size(); i++) out.add(member(f, own, i));
        }
        return out;
    }

    /**
     * What a thing about the value at {@code identity} becomes once unfolded, as {@link #unfold} writes a finding with
     * that identity: once per member of the fold the identity carries ({@code member} gets the member's identity and
     * what moves a place of the folded item to the member's), else once, as it is.
     */
    public <T> List<T> unfold(String identity, java.util.function.BiFunction<String, java.util.function.UnaryOperator<Span>, T> member) {
        Fold own = fold(identity);
        if (own == null) return List.of(member.apply(identity, s -> s));
        List<T> out = new ArrayList<>(own.size());
        for (int i = 0; i < own.size(); i++) {
            int n = i;
            out.add(member.apply(text(identity, own, n), s -> at(s, own, n)));
        }
        return out;
    }

    /** The finding as member {@code i} of {@code own} has it; tokens of other folds name their representatives. */
    private Finding member(Finding f, Fold own, int i) {
        List<Finding.Related> related = new ArrayList<>(f.related().size());
        for (Finding.Related r : f.related()) related.add(new Finding.Related(at(r.span(), own, i), bounded(r.message(), own, i)));
        List<dev.gpulint.core.Fix> fixes = new ArrayList<>(f.fixes().size());
        for (dev.gpulint.core.Fix x : f.fixes()) {
            fixes.add(x.withEdits(x.edits().stream().map(e -> e.at(at(e.span(), own, i))).toList()));
        }
        return new Finding(f.ruleId(), f.level(), at(f.span(), own, i), bounded(f.message(), own, i), related,
                text(f.identity(), own, i), f.suppression(), fixes);
    }

    /** A message or related text with names for tokens, bounded as the rules' texts are (the rule engine left these whole). */
    private String bounded(String t, Fold own, int i) {
        return !Fold.marked(t) ? t : Finding.bounded(text(t, own, i), Finding.MAX_MESSAGE);
    }

    private static Span at(Span s, Fold own, int i) { return own == null ? s : own.span(s, i); }

    private String text(String t, Fold own, int i) {
        if (!Fold.marked(t)) return t;
        if (own != null) t = own.named(t, i);
        // each pass replaces every occurrence of one fold's token
        for (Fold other = fold(t); other != null; other = fold(t)) t = other.named(t, 0);
        return t;
    }

    private boolean carriesToken(Finding f) {
        if (Fold.marked(f.message())) return true;
        for (Finding.Related r : f.related()) if (Fold.marked(r.message())) return true;
        return false;
    }

    /** The fold whose token {@code text} carries first, or null. */
    private Fold fold(String text) {
        if (text == null) return null;
        // the first of the characters that is a token's: a name may hold them too
        for (int at = text.indexOf(Fold.OPEN); at >= 0; at = text.indexOf(Fold.OPEN, at + 1)) {
            Fold f = fold(text, at);
            if (f != null) return f;
        }
        return null;
    }

    private Fold fold(String text, int at) {
        int end = text.indexOf(Fold.CLOSE, at);
        return end < 0 || end - at > 40 ? null : byToken.get(text.substring(at, end + 1));
    }
}
