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

    private static void fields(OutputStream o, String... fields) throws IOException {
        for (String f : fields) {
            o.write(f.getBytes(StandardCharsets.UTF_8));
            o.write(0);
        }
    }

    /** The daemon's answer to {@code status} (pid, port, started, served, idle-timeout, jar), or empty when none answers. */
    public static Optional<Map<String, String>> status(StateFile.State st) {
        try (Socket s = connect(st.port())) {
            fields(s.getOutputStream(), Wire.MAGIC, st.token(), "status");
            String text = new String(s.getInputStream().readNBytes(1 << 16), StandardCharsets.UTF_8);
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
        try (Socket s = connect(st.port())) {
            fields(s.getOutputStream(), Wire.MAGIC, st.token(), "stop");
            return new String(s.getInputStream().readNBytes(64), StandardCharsets.US_ASCII).startsWith("stopping");
        } catch (IOException e) {
            return false;
        }
    }

    /** This process's umask, as a run request carries it. */
    public static int ownUmask() { return Umask.own(); }

    /** Sends a run request as bin/gpulint does; {@code stdin} is sent when the daemon asks for it. */
    public static Reply run(int port, String token, String jar, String cwd, int umask, List<String> args,
                            Map<String, String> env, byte[] stdin) throws IOException {
        try (Socket s = connect(port)) {
            OutputStream o = s.getOutputStream();
            try {
                fields(o, Wire.MAGIC, token, "run", jar, cwd);
                o.write(Wire.ascii(String.format("%04o%n", umask)));
                fields(o, String.valueOf(args.size()));
                fields(o, args.toArray(String[]::new));
                fields(o, String.valueOf(env.size()));
                for (Map.Entry<String, String> e : env.entrySet()) fields(o, e.getKey() + "=" + e.getValue());
                o.flush();
            } catch (IOException e) {
                // refused before the whole request was read (a wrong token, too large): the answer says so
            }
            InputStream in = new BufferedInputStream(s.getInputStream());
            String line = Wire.line(in, 256);
            if (line.startsWith("stdin ")) {
                try (Socket b = connect(port)) {
                    fields(b.getOutputStream(), Wire.MAGIC, token, "stdin", line.substring(6));
                    b.getOutputStream().write(stdin);
                    b.shutdownOutput();
                    b.getInputStream().read();      // until the daemon closes it: the run is over
                } catch (IOException e) {
                    // the run took what it needed and closed it
                }
                line = Wire.line(in, 256);
            }
            if (line.startsWith("refused ")) return new Reply(line.substring(8), -1, List.of());
            if (!line.startsWith("exit ")) throw new IOException("unexpected reply: " + line);
            int code = Integer.parseInt(line.substring(5));
            List<Recording.Chunk> frames = new ArrayList<>();
            while (true) {
                String h = Wire.line(in, 64);
                if (h.equals("end")) break;
                String[] f = h.split(" ");
                byte[] body = in.readNBytes(Integer.parseInt(f[1]));
                frames.add(new Recording.Chunk(f[0].equals("err"), body));
                o.write('.');
                o.flush();
            }
            return new Reply(null, code, frames);
        }
    }
}
