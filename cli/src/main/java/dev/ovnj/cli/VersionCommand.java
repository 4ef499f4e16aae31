package dev.ovnj.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code ovnj version}: ovnj's version and the OVN release and Northbound schema it was built
 * against. JSON shape (version 1): {@code {kind:"version", version, ovnj, ovnRelease, schema:
 * {name, version}}}.
 */
@Command(name = "version", mixinStandardHelpOptions = true,
        description = "Print ovnj's version and the OVN release and Northbound schema version it was built against.")
final class VersionCommand implements Callable<Integer> {

    @Mixin
    private OutputOption output;

    @Override
    public Integer call() {
        BuildInfo info = BuildInfo.read();
        if (output.json()) {
            ObjectNode root = JsonDocument.start("version");
            root.put("ovnj", info.ovnj());
            root.put("ovnRelease", info.ovnRelease());
            ObjectNode schema = root.putObject("schema");
            schema.put("name", info.schemaName());
            schema.put("version", info.schemaVersion());
            JsonDocument.print(System.out, root);
        } else {
            for (String line : info.lines()) {
                System.out.println(line);
            }
            System.out.flush();
        }
        return 0;
    }
}
