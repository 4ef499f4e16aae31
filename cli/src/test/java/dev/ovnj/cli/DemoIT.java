package dev.ovnj.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Runs the packaged jar as a separate process, the way the README's first command does. */
class DemoIT {

    @Test
    void demoRunsUnattendedAndShowsTheLoadBalancerOnTheEip() throws Exception {
        Path jar = Path.of("target", "ovnj.jar");
        assertThat(Files.exists(jar)).as("shaded jar built in package phase").isTrue();
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, "-jar", jar.toString(), "demo")
                .redirectErrorStream(true)
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        assertThat(out).contains("168.119.17.51:2379").contains("10.1.0.40:2379,10.1.0.41:2379")
                .contains("$ ovn-nbctl lr-lb-list shalb-dev");
    }
}
