package dev.gpulint.daemon;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The protocol's client side in Java (bin/gpulint speaks it in bash): {@code gpulint daemon status} and
 * {@code stop}, and tests, which run requests through it as the launcher does.
 */
public final class Client {
    private Client() {}

    /** A run's reply: refused (with the reason), or its exit code and output frames in order. */
    public record Reply(String refused, int code, List<Recording.Chunk> frames) {
        public byte[] out() { return join(false); }

        public byte[] err() { return join(true); }

        private byte[] join(boolean err) {
            ByteArrayOutputStream b = new ByteArrayOutputStream();
            for (Recording.Chunk c : frames) if (c.err() == err) b.writeBytes(c.bytes());
            return b.toByteArray();
        }
    }

    private static Socket connect(int port) throws IOException {
        Socket s = new Socket(InetAddress.getByAddress(new byte[] {127, 0, 0, 1}), port);
        s.setSoTimeout(60_000);
        return s;
    }

    /** Thrown when what listens at the port cannot prove it holds the token: nothing else was sent to it. */
    public static final class NotTheDaemon extends IOException {
        NotTheDaemon(String what) { super("what listens at the daemon's port is not the daemon (" + what + ")"); }
    }

    /**
     * Connects and proves, both ways, that each side holds the token ({@link Wire}); then sends {@code kind}. The
     * listener's proof is checked before the client's own proof or anything of the request is sent.
     */
    private static Socket open(int port, String token, String kind, InputStream[] in) throws IOException {
        Socket s = connect(port);
        try {
            String nonce = Wire.nonce();
            OutputStream o = s.getOutputStream();
            fields(o, Wire.MAGIC, nonce);
            o.flush();
            in[0] = new BufferedInputStream(s.getInputStream());
            String line = Wire.line(in[0], 256);
            String[] f = line.split(" ");
            if (f.length != 3 || !f[0].equals("daemon") || !Wire.isNonce(f[1])) throw new NotTheDaemon("it answered: " + line);
            if (!java.security.MessageDigest.isEqual(Wire.daemonProof(token, nonce, f[1]).getBytes(StandardCharsets.US_ASCII),
                    f[2].getBytes(StandardCharsets.US_ASCII))) throw new NotTheDaemon("a wrong proof of the token");
            fields(o, Wire.clientProof(token, nonce, f[1]), kind);
            o.flush();
            return s;
        } catch (IOException | RuntimeException e) {
            s.close();
            throw e;
        }
    }

    private static void fields(OutputStream o, String... fields) throws IOException {
        for (String f : fields) {
            o.write(f.getBytes(StandardCharsets.UTF_8));
            o.write(0);
        }
    }

    /** The daemon's answer to {@code status} (pid, port, started, served, idle-timeout, jar), or empty when none answers. */
    public static Optional<Map<String, String>> status(StateFile.State st) {
        InputStream[] in = new InputStream[1];
        try (Socket s = open(st.port(), st.token(), "status", in)) {
            String text = new String(in[0].readNBytes(1 << 16), StandardCharsets.UTF_8);
            Map<String, String> out = new LinkedHashMap<>();
            for (String line : text.split("\n")) {
                int sp = line.indexOf(' ');
                if (sp > 0) out.put(line.substring(0, sp), line.substring(sp + 1));
            }
            return out.containsKey("pid") ? Optional.of(out) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** Asks the daemon to stop; true when it said it would. */
    public static boolean stop(StateFile.State st) {
        InputStream[] in = new InputStream[1];
        try (Socket s = open(st.port(), st.token(), "stop", in)) {
            return new String(in[0].readNBytes(64), StandardCharsets.US_ASCII).startsWith("stopping");
        } catch (IOException e) {
            return false;
        }
    }

    /** This process's umask, as a run request carries it. */
    public static int ownUmask() { return Umask.own(); }

    /**
     * Sends a run request as bin/gpulint does. An answer cut short (the daemon stopped or was killed while it was
     * delivering: no {@code end}, or a frame shorter than it said) is an IOException, never a short report.
     */
    public static Reply run(int port, String token, String jar, String cwd, int umask, List<String> args,
                            Map<String, String> env) throws IOException {
        InputStream[] input = new InputStream[1];
        try (Socket s = open(port, token, "run", input)) {
            OutputStream o = s.getOutputStream();
            try {
                fields(o, jar, cwd);
                o.write(Wire.ascii(String.format("%04o%n", umask)));
                fields(o, String.valueOf(args.size()));
                fields(o, args.toArray(String[]::new));
                fields(o, String.valueOf(env.size()));
                for (Map.Entry<String, String> e : env.entrySet()) fields(o, e.getKey() + "=" + e.getValue());
                o.flush();
            } catch (IOException e) {
                // refused before the whole request was read (too large): the answer says so
            }
            InputStream in = input[0];
            String line = Wire.line(in, 256);
            if (line.startsWith("refused ")) return new Reply(line.substring(8), -1, List.of());
            if (!line.startsWith("exit ")) throw new IOException("unexpected reply: " + line);
            int code = Integer.parseInt(line.substring(5));
            List<Recording.Chunk> frames = new ArrayList<>();
            try {
                while (true) {
                    String h = Wire.line(in, 64);
                    if (h.equals("end")) break;
                    String[] f = h.split(" ");
                    int size = Integer.parseInt(f[1]);
                    byte[] body = in.readNBytes(size);
                    if (body.length < size) throw new java.io.EOFException("a frame of " + size + " bytes ended after " + body.length);
                    frames.add(new Recording.Chunk(f[0].equals("err"), body));
                    o.write('.');
                    o.flush();
                }
            } catch (IOException e) {
                throw new IOException("the daemon stopped before its answer was complete (" + e.getMessage() + ")", e);
            }
            return new Reply(null, code, frames);
        }
    }
}
