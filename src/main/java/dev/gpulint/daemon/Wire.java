package dev.gpulint.daemon;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;

/**
 * The daemon's protocol, simple enough for bash's {@code /dev/tcp} (docs/daemon.md). First a handshake in which
 * each side proves it holds the token without sending it: the client sends the magic and a nonce; the daemon
 * answers {@code daemon NONCE PROOF}, PROOF being {@link #hmac} of the token over "daemon", the client's nonce and
 * its own; the client checks it before it sends anything else (a listener that is not the daemon, holding a port a
 * crashed daemon left, learns nothing), then sends its own proof over "client" and both nonces. Then the request:
 * fields, each ended by a NUL byte (arguments, paths and environment values cannot hold one), except the umask, a
 * line as bash's {@code umask} prints it. The daemon answers with lines ({@code refused REASON},
 * {@code exit CODE}, {@code end}) and frames ({@code out N} or {@code err N}, a line, then N
 * raw bytes); after each frame the client sends one byte, and only then comes the next line, so a client that
 * copies N bytes with {@code head -c N} never reads past its frame.
 */
final class Wire {
    private Wire() {}

    static final String MAGIC = "gpulint-daemon/2";

    /** HMAC-SHA256 of {@code message} (UTF-8) keyed with the token's characters, in hex: what bin/gpulint computes with sha256sum. */
    static String hmac(String token, String message) {
        try {
            javax.crypto.Mac mac = javax.crypto.Mac.getInstance("HmacSHA256");
            mac.init(new javax.crypto.spec.SecretKeySpec(token.getBytes(StandardCharsets.US_ASCII), "HmacSHA256"));
            return java.util.HexFormat.of().formatHex(mac.doFinal(message.getBytes(StandardCharsets.UTF_8)));
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every Java 17", e);
        }
    }

    /** The daemon's proof for a client's nonce and its own. */
    static String daemonProof(String token, String clientNonce, String daemonNonce) {
        return hmac(token, "daemon " + clientNonce + " " + daemonNonce);
    }

    /** The client's proof, over the same nonces in the other order and another label (no proof can be sent back as the other). */
    static String clientProof(String token, String clientNonce, String daemonNonce) {
        return hmac(token, "client " + daemonNonce + " " + clientNonce);
    }

    /** 16 random bytes, hex. */
    static String nonce() {
        byte[] b = new byte[16];
        new java.security.SecureRandom().nextBytes(b);
        return java.util.HexFormat.of().formatHex(b);
    }

    /** A nonce as a client may send it: 16 to 64 hex digits. */
    static boolean isNonce(String s) {
        return s.length() >= 16 && s.length() <= 64 && s.chars().allMatch(c -> c >= '0' && c <= '9' || c >= 'a' && c <= 'f');
    }

    /** Thrown when the client sends more than the daemon reads. */
    static final class TooLarge extends IOException {
        TooLarge() { super("too large"); }
    }

    /** Counts what a request may still send: every field read is taken from one budget. */
    static final class Budget {
        private long left;

        Budget(long bytes) { this.left = bytes; }
    }

    /** One field's bytes, up to the NUL that ends it, at most {@code max} bytes and within the budget. */
    static byte[] field(InputStream in, int max, Budget budget) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        while (true) {
            int c = in.read();
            if (c < 0) throw new EOFException("the client closed the connection");
            if (c == 0) return b.toByteArray();
            if (b.size() >= max || --budget.left < 0) throw new TooLarge();
            b.write(c);
        }
    }

    static String field(InputStream in, int max, Budget budget, Charset cs) throws IOException {
        return new String(field(in, max, budget), cs);
    }

    /** A line (without its newline), ASCII, at most {@code max} bytes. */
    static String line(InputStream in, int max) throws IOException {
        StringBuilder s = new StringBuilder();
        while (true) {
            int c = in.read();
            if (c < 0) throw new EOFException("the connection closed");
            if (c == '\n') return s.toString();
            if (s.length() >= max) throw new TooLarge();
            s.append((char) c);
        }
    }

    static int count(InputStream in, Budget budget, int max) throws IOException {
        String s = new String(field(in, 10, budget), StandardCharsets.US_ASCII);
        try {
            int n = Integer.parseInt(s);
            if (n < 0) throw new IOException("a negative count");
            if (n > max) throw new TooLarge();
            return n;
        } catch (NumberFormatException e) {
            throw new IOException("not a count: " + s);
        }
    }

    static byte[] ascii(String s) { return s.getBytes(StandardCharsets.US_ASCII); }
}
