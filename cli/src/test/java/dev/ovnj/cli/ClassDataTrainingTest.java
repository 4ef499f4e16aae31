package dev.ovnj.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import org.junit.jupiter.api.Test;

/**
 * The launcher's class-data training runs every database command to its end (a failing one would
 * leave its classes out of the archive without anyone noticing) and prints nothing.
 */
class ClassDataTrainingTest {

    @Test
    void runsTheDatabaseCommandsAgainstAnInMemoryDatabaseQuietly() {
        PrintStream out = System.out;
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        System.setOut(new PrintStream(printed));
        int exit;
        try {
            exit = Main.run("class-data-training");
        } finally {
            System.setOut(out);
        }
        assertThat(exit).isZero();
        assertThat(printed.toString()).isEmpty();
    }
}
