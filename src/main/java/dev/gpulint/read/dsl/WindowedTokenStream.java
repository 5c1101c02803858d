package dev.gpulint.read.dsl;

import java.util.AbstractList;
import java.util.Arrays;
import org.antlr.v4.runtime.CommonTokenStream;
import org.antlr.v4.runtime.Token;
import org.antlr.v4.runtime.TokenSource;

/**
 * A token stream that can forget the tokens before a point. {@link CommonTokenStream} keeps every
 * token of the file (a million-node-group fleet file has tens of millions); {@link DslReader}
 * converts each entry of a top-level block as soon as it is parsed and then releases its tokens,
 * so the buffer holds about one entry. Token indexes stay absolute; reading a released token is an
 * error (the parser only looks back one token, and only within the entry it is parsing).
 */
final class WindowedTokenStream extends CommonTokenStream {

    private final Window window = new Window();

    WindowedTokenStream(TokenSource source) {
        super(source);
        this.tokens = window;
    }

    /** Forgets the tokens with an index below {@code index}. */
    void forgetBefore(int index) { window.release(index); }

    /** The tokens from {@code base} on, in an array that is compacted as tokens are released. */
    private static final class Window extends AbstractList<Token> {
        private Token[] buf = new Token[256];
        private int base;
        private int count;

        @Override public Token get(int i) {
            int j = i - base;
            if (j < 0 || j >= count) throw new IndexOutOfBoundsException("token " + i + " is not buffered");
            return buf[j];
        }

        @Override public int size() { return base + count; }

        @Override public boolean add(Token t) {
            if (count == buf.length) buf = Arrays.copyOf(buf, buf.length * 2);
            buf[count++] = t;
            return true;
        }

        @Override public void clear() {
            Arrays.fill(buf, 0, count, null);
            base = 0;
            count = 0;
        }

        void release(int index) {
            int n = Math.min(index - base, count);
            if (n <= 0) return;
            System.arraycopy(buf, n, buf, 0, count - n);
            Arrays.fill(buf, count - n, count, null);
            base += n;
            count -= n;
        }
    }
}
