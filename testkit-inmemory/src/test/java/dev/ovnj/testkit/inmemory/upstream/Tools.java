package dev.ovnj.testkit.inmemory.upstream;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Runs the OVS command-line tools the upstream cases use, each with a bound on its run time. */
final class Tools {
    /** What a finished command printed and how it exited. */
    record Result(int exit, String stdout, String stderr) {
    }

    private Tools() {
    }

    static Result run(Path dir, Map<String, String> env, long timeoutSeconds, List<String> command) {
        try {
            Path out = Files.createTempFile(dir, "out", ".txt");
            Path err = Files.createTempFile(dir, "err", ".txt");
            ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile())
                    .redirectOutput(out.toFile()).redirectError(err.toFile()).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
            pb.environment().put("LC_ALL", "C");
            pb.environment().putAll(env);
            Process p = pb.start();
            if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                p.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
                return new Result(-1, Files.readString(out), Files.readString(err) + "\n(timed out after " + timeoutSeconds + " s)");
            }
            return new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running " + command, e);
        }
    }
}
