package dev.gpulint.core;

import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * File names as gpulint shows them, and back. A Linux file name is bytes; Java shows one that is not
 * valid UTF-8 (or any non-ASCII one under the C locale) with U+FFFD in place of the bytes, a name no
 * file has. gpulint shows the name decoded as UTF-8 with each byte that is not part of valid UTF-8
 * written {@code \xNN} (two lower-case hex digits, Python's {@code backslashreplace}): {@code j\xffob.yaml}
 * for the bytes {@code j 0xff o b . y a m l}. Every report format and every fingerprint takes that name;
 * bash's {@code $'j\xffob.yaml'} turns it back into the file's name, and gpulint itself takes it as an
 * argument ({@link #given}).
 */
public final class PathNames {
    private PathNames() {}

    /**
     * A path's text with '/' between names: only Windows' separator '\\' is turned into '/'; on Unix a
     * backslash is part of a name (and of the {@code \\xNN} escapes {@link #shown} writes).
     */
    public static String slashes(String path) {
        return java.io.File.separatorChar == '\\' ? path.replace('\\', '/') : path;
    }

    /** The name of {@code p} as shown: its text, with bytes that are not UTF-8 escaped as {@code \xNN}. */
    public static String shown(Path p) {
        String s = p.toString();
        if (s.indexOf('\uFFFD') < 0) return s;
        byte[] raw = bytes(p);
        return raw == null ? s : decode(raw);
    }

    /**
     * The bytes of {@code p}'s name, from its {@code file:} URI (the only public view of a Unix path's bytes:
     * the JDK percent-encodes them one by one); null on a file system without byte names (Windows).
     */
    static byte[] bytes(Path p) {
        if (!"/".equals(p.getFileSystem().getSeparator())) return null;
        boolean relative = !p.isAbsolute();
        Path abs = relative ? p.getFileSystem().getPath("/").resolve(p) : p;
        String raw = abs.toUri().getRawPath();
        // a folder's URI ends with '/', which is no part of its name
        if (raw.length() > 1 && raw.endsWith("/") && !p.toString().endsWith("/")) raw = raw.substring(0, raw.length() - 1);
        if (relative) raw = raw.substring(1);
        ByteArrayOutputStream out = new ByteArrayOutputStream(raw.length());
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (c == '%' && i + 2 < raw.length()) {
                out.write(Integer.parseInt(raw.substring(i + 1, i + 3), 16));
                i += 2;
            } else {
                out.write(c);
            }
        }
        return out.toByteArray();
    }

    /** Bytes as UTF-8, each byte that is not part of valid UTF-8 written {@code \xNN}. */
    public static String decode(byte[] raw) {
        CharsetDecoder d = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(raw);
        CharBuffer out = CharBuffer.allocate(raw.length * 4 + 4);
        while (true) {
            CoderResult r = d.decode(in, out, true);
            if (r.isError()) {
                for (int k = 0; k < r.length(); k++) out.put(String.format("\\x%02x", in.get() & 0xff));
            } else {
                d.flush(out);
                return out.flip().toString();
            }
        }
    }

    /**
     * The path a user named: {@code given} itself when that names a file, else, when it holds
     * {@code \xNN} escapes (as {@link #shown} writes them) or characters this JVM's locale cannot name
     * (any non-ASCII one under the C locale), the path of those bytes when that exists. Relative paths
     * stay relative (to {@code base}).
     */
    public static Path given(String given, Path base) {
        Path plain;
        try {
            plain = Path.of(given);
            if (given.indexOf("\\x") < 0 || Files.exists(base.resolve(plain))) return plain;
        } catch (InvalidPathException e) {
            plain = null;
        }
        Path raw = ofBytes(unescape(given), base);
        if (raw != null && (plain == null || Files.exists(raw))) {
            return given.startsWith("/") ? raw : base.toAbsolutePath().relativize(raw);
        }
        if (plain != null) return plain;
        throw new InvalidPathException(given, "not a file name on this system");
    }

    private static Path ofBytes(byte[] name, Path base) {
        if (!"/".equals(base.getFileSystem().getSeparator())) return null;
        StringBuilder uri = new StringBuilder("file://");
        if (name.length == 0 || name[0] != '/') {
            uri.append(base.toAbsolutePath().toUri().getRawPath());
            if (uri.charAt(uri.length() - 1) != '/') uri.append('/');
        }
        for (byte b : name) {
            int c = b & 0xff;
            if (c < 0x80 && (Character.isLetterOrDigit(c) || "/-._~".indexOf(c) >= 0)) uri.append((char) c);
            else uri.append('%').append(String.format("%02X", c));
        }
        try {
            return Path.of(URI.create(uri.toString()));
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** The bytes a shown name stands for: its UTF-8, with each {@code \xNN} one byte. */
    static byte[] unescape(String shown) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(shown.length());
        for (int i = 0; i < shown.length(); ) {
            if (shown.startsWith("\\x", i) && i + 4 <= shown.length() && hex(shown.charAt(i + 2)) && hex(shown.charAt(i + 3))) {
                out.write(Integer.parseInt(shown.substring(i + 2, i + 4), 16));
                i += 4;
            } else {
                int cp = shown.codePointAt(i);
                out.writeBytes(new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8));
                i += Character.charCount(cp);
            }
        }
        return out.toByteArray();
    }

    private static boolean hex(char c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    }

    /**
     * The command line's arguments with the bytes Java lost put back: the JVM decodes them in the
     * locale's character set, so a name that is not valid UTF-8 (or any non-ASCII one under the C locale)
     * arrives with U+FFFD in it. {@code cmdline} is the process's own command line (Linux's
     * /proc/self/cmdline: NUL-terminated arguments); its last {@code args.length} entries are the
     * arguments, taken only when each decodes to the argument Java gave (else {@code args} as they are).
     */
    public static String[] args(String[] args, byte[] cmdline, java.nio.charset.Charset locale) {
        boolean lossy = false;
        for (String a : args) lossy |= a.indexOf('\uFFFD') >= 0;
        if (!lossy || cmdline == null) return args;
        List<byte[]> parts = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < cmdline.length; i++) {
            if (cmdline[i] == 0) {
                parts.add(java.util.Arrays.copyOfRange(cmdline, start, i));
                start = i + 1;
            }
        }
        if (parts.size() < args.length) return args;
        String[] out = new String[args.length];
        for (int i = 0; i < args.length; i++) {
            byte[] raw = parts.get(parts.size() - args.length + i);
            if (!new String(raw, locale).equals(args[i])) return args;
            out[i] = args[i].indexOf('\uFFFD') < 0 ? args[i] : decode(raw);
        }
        return out;
    }

    /**
     * What makes two paths one file: its real path (links followed, so a link and its target, or "a/../b" and "b", are
     * one), or its absolute normalised path when that cannot be had (no such file: standard input's name, an overlay).
     */
    public static java.nio.file.Path sameFileKey(java.nio.file.Path p) {
        try {
            return p.toRealPath();
        } catch (java.io.IOException | RuntimeException e) {
            return p.toAbsolutePath().normalize();
        }
    }

    /**
     * Whether {@code p}, its links followed, lies inside {@code realRoot} (a real path): the folder walk's rule for
     * links to folders and files. A path that cannot be resolved (a dangling link, a loop) is not inside.
     */
    public static boolean realUnder(Path p, Path realRoot) {
        try {
            return p.toRealPath().startsWith(realRoot);
        } catch (java.io.IOException | SecurityException e) {
            return false;
        }
    }
}
