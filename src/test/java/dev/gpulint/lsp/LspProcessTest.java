package dev.gpulint.lsp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import dev.gpulint.testing.CpuBudget;

/**
 * {@code gpulint lsp} as its own process, the way an editor starts it: its standard output carries JSON-RPC frames
 * and nothing else, even when a rule's code prints to System.out (a team rule here does), and it exits 0 after
 * shutdown and exit.
 */
class LspProcessTest {

    @TempDir Path dir;

    static void send(OutputStream out, String json) throws IOException {
        byte[] body = json.getBytes(StandardCharsets.UTF_8);
        out.write(("Content-Length: " + body.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        out.write(body);
        out.flush();
    }

    /** The next frame's JSON; fails on anything on standard output that is not a frame. */
    static JsonObject frame(InputStream in) throws IOException {
        ByteArrayOutputStream header = new ByteArrayOutputStream();
        while (true) {
            int b = in.read();
            if (b < 0) throw new AssertionError("standard output ended inside a header: " + header);
            header.write(b);
            String h = header.toString(StandardCharsets.US_ASCII);
            if (h.endsWith("\r\n\r\n")) {
                assertTrue(h.startsWith("Content-Length: "), "not a JSON-RPC frame on standard output: " + h);
                int n = Integer.parseInt(h.substring("Content-Length: ".length(), h.indexOf("\r\n")).strip());
                return JsonParser.parseString(new String(in.readNBytes(n), StandardCharsets.UTF_8)).getAsJsonObject();
            }
            if (header.size() > 200) throw new AssertionError("not a JSON-RPC frame on standard output: " + h);
        }
    }

    @Test
    void standardOutputIsJsonRpcOnly() throws Exception {
        Files.createDirectories(dir.resolve(".git"));
        Files.createDirectories(dir.resolve("team"));
        Files.writeString(dir.resolve("team/TEAM001.drl"), LspFixesTest.TEAM_DRL.replace("then\n", "then\n    System.out.println(\"a rule prints\");\n"));
        Files.writeString(dir.resolve("team/TEAM001.yaml"), LspFixesTest.TEAM_YAML);
        Files.writeString(dir.resolve(".gpulint.yaml"), "rule_paths: [team/]\n");
        Path job = dir.resolve("job.yaml");
        Files.writeString(job, LspFixesTest.JOB);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), "dev.gpulint.cli.Main", "lsp")
                .directory(dir.toFile()).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        try (OutputStream in = p.getOutputStream(); InputStream out = p.getInputStream()) {
            String uri = job.toUri().toString();
            send(in, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"processId\":null,\"rootUri\":\""
                    + dir.toUri() + "\",\"capabilities\":{}}}");
            JsonObject init = frame(out);
            assertEquals(1, init.get("id").getAsInt());
            assertEquals("gpulint", init.getAsJsonObject("result").getAsJsonObject("serverInfo").get("name").getAsString());
            send(in, "{\"jsonrpc\":\"2.0\",\"method\":\"initialized\",\"params\":{}}");
            send(in, "{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/didOpen\",\"params\":{\"textDocument\":{\"uri\":\"" + uri
                    + "\",\"languageId\":\"yaml\",\"version\":1,\"text\":" + com.google.gson.JsonParser.parseString("\"x\"").toString()
                    .replace("x", LspFixesTest.JOB.replace("\n", "\\n")) + "}}}");
            List<String> rules = new ArrayList<>();
            while (rules.isEmpty()) {
                JsonObject m = frame(out);
                if (!"textDocument/publishDiagnostics".equals(m.has("method") ? m.get("method").getAsString() : null)) continue;
                for (var d : m.getAsJsonObject("params").getAsJsonArray("diagnostics")) rules.add(d.getAsJsonObject().get("code").getAsString());
            }
            assertTrue(rules.contains("TEAM001"), rules.toString());
            send(in, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"shutdown\"}");
            JsonObject down;
            do {
                down = frame(out);
            } while (!down.has("id"));
            assertEquals(2, down.get("id").getAsInt());
            send(in, "{\"jsonrpc\":\"2.0\",\"method\":\"exit\"}");
            CpuBudget.waitFor(p, 30);   // the server exits after exit
            assertEquals(0, p.exitValue());
            byte[] rest = out.readAllBytes();
            assertEquals("", new String(rest, StandardCharsets.UTF_8), "nothing after the last frame");
        } finally {
            p.destroyForcibly();
        }
    }
}
