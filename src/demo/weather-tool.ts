import { z } from 'zod';
import { defineTool } from '../tools/define-tool';

/** Fixed demo readings, so the demo runs offline and gives the same answer every time. */
const READINGS: Record<string, { temperatureC: number; conditions: string; humidity: number }> = {
  'san francisco': { temperatureC: 18, conditions: 'partly cloudy', humidity: 72 },
  paris: { temperatureC: 12, conditions: 'light rain', humidity: 85 },
  london: { temperatureC: 11, conditions: 'overcast', humidity: 80 },
  tokyo: { temperatureC: 21, conditions: 'clear', humidity: 60 },
  'new york': { temperatureC: 15, conditions: 'sunny', humidity: 55 },
  berlin: { temperatureC: 9, conditions: 'windy', humidity: 70 },
};

export const DEMO_CITIES = Object.keys(READINGS);

/** A demo reading of a known city, in the units asked; an unknown city is an error naming the known ones. */
export function demoReading(location: string, units: 'celsius' | 'fahrenheit' = 'celsius') {
  const reading = READINGS[location.trim().toLowerCase()];
  if (!reading) throw new Error(`No demo weather data for "${location}". Known cities: ${DEMO_CITIES.join(', ')}.`);
  const temperature = units === 'celsius' ? reading.temperatureC : Math.round(reading.temperatureC * 1.8 + 32);
  return {
    location,
    temperature,
    units,
    conditions: reading.conditions,
    humidity: reading.humidity,
    source: 'thoughtline demo data',
  };
}

/** The demo's local weather tool (the classic ReAct `weather_api` example). Data are canned, not live. */
export const weatherTool = defineTool({
  name: 'get_weather',
  description:
    'Current weather for a city (demo data for a few large cities). Returns temperature, conditions and humidity.',
  input: z.object({
    location: z.string().min(1).describe('City name, e.g. "Paris"'),
    units: z.enum(['celsius', 'fahrenheit']).default('celsius').describe('Temperature units'),
  }),
  timeoutMs: 10_000,
  execute: ({ location, units }) => demoReading(location, units),
});
