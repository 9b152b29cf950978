// Every route module of the emulator; add one line per area.
import type { RouteModule } from '../context';
import { register as discovery } from './discovery';
import { register as login } from './login';
import { register as records } from './records';
import { register as classifications } from './classifications';
import { register as fields } from './fields';
import { register as directory } from './directory';
import { register as settings } from './settings';
import { register as search } from './search';
import { register as tasks } from './tasks';
import { register as activities } from './activities';
import { register as resources } from './resources';
import { register as analytics } from './analytics';
import { register as checks } from './checks';
import { register as uploads } from './uploads';
import { register as files } from './files';
import { register as maintenance } from './maintenance';
import { register as emulatorState } from '../state/routes';
import { register as webPages } from './webPages';
import { register as configuration } from './configuration';
import { register as configurationObjects } from './configurationObjects';
import { register as publishing } from './publishing';
import { register as catalogueRelations } from './catalogueRelations';

export const routeModules: RouteModule[] = [discovery, login, records, classifications, fields, directory, settings, search, tasks, activities, resources, analytics, checks, uploads, files, maintenance, emulatorState, webPages, configuration, configurationObjects, publishing, catalogueRelations];
