package dev.gpulint.lsp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import dev.gpulint.report.ReportOptions;
import dev.gpulint.testing.MemoryPipe;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server's life as the LSP specification orders it, over JSON-RPC as an editor speaks it (issue 40, item 16):
 * a request before initialize is the error -32002 and a notification then is dropped; after shutdown a request is
 * the error -32600; and a hover far past the end of a document (a position no text has) is a clean answer, never
 * "Internal error" with a Java stack trace.
 */
class LspLifecycleTest {

    @TempDir Path dir;

    /** The next response to request {@code id}; notifications met on the way are kept in {@code seen}. */
    private static JsonObject response(InputStream in, int id, List<JsonObject> seen) throws IOException {
        while (true) {
            JsonObject m = LspProcessTest.frame(in);
            if (m.has("id") && !m.has("method") && m.get("id").getAsInt() == id) return m;
            seen.add(m);
        }
    }

    private static String hover(int id, String uri, long line, long character) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"textDocument/hover\",\"params\":{\"textDocument\":{\"uri\":\"" + uri
                + "\"},\"position\":{\"line\":" + line + ",\"character\":" + character + "}}}";
    }

    @Test
    void aFailedRequestIsAnsweredWithoutAJavaStackTrace() {
        var e = Lifecycle.answer(new java.util.concurrent.CompletionException(new IndexOutOfBoundsException("offset -2")));
        assertEquals(-32603, e.getCode());
        assertEquals("gpulint could not answer: java.lang.IndexOutOfBoundsException: offset -2 (a bug in gpulint; its log on standard "
                + "error has the details)", e.getMessage());
        assertEquals(null, e.getData(), "no stack trace in the answer");
        var own = Lifecycle.answer(new org.eclipse.lsp4j.jsonrpc.ResponseErrorException(
                new org.eclipse.lsp4j.jsonrpc.messages.ResponseError(-32002, "not initialized", null)));
        assertEquals(-32002, own.getCode());
    }

    @Test
    void requestsOutsideTheSessionAreTheSpecificationsErrorsAndFarPositionsAreClean() throws Exception {
        Files.createDirectories(dir.resolve(".git"));
        Path job = dir.resolve("job.yaml");
        String text = "kind: training_job\nname: j\nnodes: 2\ngpus_per_node: 8\nparallelism: { tp: 16 }\n";
        Files.writeString(job, text);
        String uri = job.toUri().toString();
        // not java.io's piped streams: their reader dies with the last thread that wrote, and the lint thread that
        // publishes ends at shutdown (MemoryPipe)
        MemoryPipe toServer = new MemoryPipe(), fromServer = new MemoryPipe();
        GpulintServer server = new GpulintServer(ReportOptions.DEFAULT, 0);
        var launcher = GpulintServer.launcher(server, toServer.in, fromServer.out);
        server.connect(launcher.getRemoteProxy());
        Future<Void> listening = launcher.startListening();
        List<JsonObject> seen = new ArrayList<>();
        try (OutputStream out = toServer.out) {
            String open = "{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/didOpen\",\"params\":{\"textDocument\":{\"uri\":\"" + uri
                    + "\",\"languageId\":\"yaml\",\"version\":1,\"text\":" + new com.google.gson.Gson().toJson(text) + "}}}";
            // before initialize: the request is an error, the notification is dropped
            LspProcessTest.send(out, open);
            LspProcessTest.send(out, hover(1, uri, 0, 0));
            JsonObject early = response(fromServer.in, 1, seen);
            assertTrue(early.has("error"), "a request before initialize was answered: " + early);
            assertEquals(-32002, early.getAsJsonObject("error").get("code").getAsInt(), early.toString());
            LspProcessTest.send(out, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"initialize\",\"params\":{\"processId\":null,\"rootUri\":\""
                    + dir.toUri() + "\",\"capabilities\":{}}}");
            assertTrue(response(fromServer.in, 2, seen).has("result"));
            LspProcessTest.send(out, "{\"jsonrpc\":\"2.0\",\"method\":\"initialized\",\"params\":{}}");
            LspProcessTest.send(out, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"initialize\",\"params\":{\"processId\":null,\"capabilities\":{}}}");
            assertEquals(-32600, response(fromServer.in, 3, seen).getAsJsonObject("error").get("code").getAsInt(), "a second initialize");
            assertFalse(seen.stream().anyMatch(m -> m.has("method") && m.get("method").getAsString().equals("textDocument/publishDiagnostics")),
                    "the didOpen sent before initialize was taken: " + seen);

            LspProcessTest.send(out, open);
            // far past the end of the document, in columns and in lines: clean answers (a hover or none), no error
            int id = 10;
            for (long[] p : new long[][] {{0, Integer.MAX_VALUE}, {Integer.MAX_VALUE, Integer.MAX_VALUE}, {4, 2_000_000_000}, {-1, -5}}) {
                LspProcessTest.send(out, hover(id, uri, p[0], p[1]));
                JsonObject r = response(fromServer.in, id++, seen);
                assertFalse(r.has("error"), "hover at " + p[0] + ":" + p[1] + ": " + r);
                assertTrue(r.has("result"), r.toString());
            }

            LspProcessTest.send(out, "{\"jsonrpc\":\"2.0\",\"id\":20,\"method\":\"shutdown\"}");
            assertTrue(response(fromServer.in, 20, seen).has("result"));
            LspProcessTest.send(out, hover(21, uri, 0, 0));
            JsonObject late = response(fromServer.in, 21, seen);
            assertTrue(late.has("error"), "a request after shutdown was answered: " + late);
            assertEquals(-32600, late.getAsJsonObject("error").get("code").getAsInt(), late.toString());
            LspProcessTest.send(out, "{\"jsonrpc\":\"2.0\",\"method\":\"exit\"}");
            assertEquals(0, server.awaitExit(listening), "exit after shutdown");
        }
    }
}
