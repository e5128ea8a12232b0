/**
 * The styles of the Mantine components the admin area shows beyond the console's set (same
 * `mantine` layer; scripts/check-mantine-css.mjs checks each screen has what it renders).
 */
import '../../components/mantine-console-styles';
import '@mantine/core/styles/AppShell.layer.css';
import '@mantine/core/styles/Burger.layer.css';
import '@mantine/core/styles/NavLink.layer.css';
import '@mantine/core/styles/Table.layer.css';
import '@mantine/core/styles/Tabs.layer.css';
import '@mantine/core/styles/SegmentedControl.layer.css';
import '@mantine/core/styles/SimpleGrid.layer.css';
import '@mantine/core/styles/Card.layer.css';
import '@mantine/core/styles/Code.layer.css';
import '@mantine/core/styles/Indicator.layer.css';
import '@mantine/core/styles/Tooltip.layer.css';
// The team dialog's member seats (MultiSelect).
import '@mantine/core/styles/Pill.layer.css';
import '@mantine/core/styles/PillsInput.layer.css';
