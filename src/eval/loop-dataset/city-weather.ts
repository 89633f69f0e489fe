import { z } from 'zod';
import { demoReading } from '../../demo/weather-tool';
import { defineTool } from '../../tools/define-tool';

/**
 * The demo's fixed readings (Paris 12°C, light rain; Tokyo 21°C, clear) under a name of the
 * dataset's own, so the grounding cases' tools come from this module and never clash with a
 * worker's `get_weather`.
 */
export const cityWeather = defineTool({
  name: 'city_weather',
  description: 'Current weather for a city (fixed readings): temperature, conditions and humidity.',
  input: z.object({ location: z.string().min(1).describe('City name, e.g. "Paris"') }),
  effects: 'none',
  execute: ({ location }) => demoReading(location),
});
