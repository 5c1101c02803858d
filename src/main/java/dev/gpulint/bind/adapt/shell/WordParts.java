package dev.gpulint.bind.adapt.shell;

import dev.gpulint.bind.adapt.shell.Shell.Word;
import dev.gpulint.core.Span;

/**
 * A part of a shell word and where it is written: the value of {@code --flag=value}, one entry of
 * {@code srun --export=A=1,B=2}. One rule for all of them: the part is placed at its own characters when the word is
 * written as it reads on one line (no quotes, escapes or expansions shifting the columns), else at the whole word.
 */
public final class WordParts {
    private WordParts() {}

    /** Characters [from, to) of {@code x}. */
    public static Word part(Word x, int from, int to) {
        Span sp = x.span();
        boolean exact = sp.startLine() == sp.endLine() && sp.endColumn() - sp.startColumn() == x.text().length();
        Span at = exact ? new Span(sp.file(), sp.startLine(), sp.startColumn() + from, sp.startLine(), sp.startColumn() + to) : sp;
        return new Word(x.text().substring(from, to), x.known(), at);
    }
}
